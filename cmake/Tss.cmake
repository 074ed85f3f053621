# tss_tile(): tile a C kernel with tss at build time, tile sizes chosen by
# tss's model for the given problem sizes.
#
#   list(APPEND CMAKE_MODULE_PATH /path/to/tss/cmake)
#   include(Tss)
#   add_executable(app main.c)
#   tss_tile(app kernel.c SIZES NI=1000,NJ=900,NK=800 [MODE t1] [PARALLEL] [MODEL dir])
#
# adds `kernel.tiled.c` (every SCoP tiled, the chosen sizes as the TSS_Tk
# defaults) to the target's sources and puts `kernel.tiles.h` (the same
# sizes as #define lines) on its include path. tss runs again only when the
# kernel, the arguments (SIZES, MODE, ...), the tss binary (which holds the
# built-in model) or the MODEL directory change; tss also caches each choice
# by kernel, sizes, model and machine, so a clean rebuild is quick.
#
# MODE is t1 (the model's pick, no measurement; default), t6-search (time the
# model's best 10 % on this machine) or t6-random. Set TSS_EXECUTABLE to use
# a tss that is not on PATH.

find_program(TSS_EXECUTABLE tss DOC "tss: tile-size selection for C loop nests")

function(tss_tile target kernel)
  cmake_parse_arguments(PARSE_ARGV 2 TSS "PARALLEL" "SIZES;MODE;MODEL" "")
  if(NOT TSS_EXECUTABLE)
    message(FATAL_ERROR "tss_tile: tss not found; install it (cargo install) or set TSS_EXECUTABLE")
  endif()
  if(NOT TSS_SIZES)
    message(FATAL_ERROR "tss_tile(${target} ${kernel}): SIZES NAME=VALUE,... is required")
  endif()
  if(NOT TSS_MODE)
    set(TSS_MODE t1)
  endif()
  get_filename_component(src "${kernel}" ABSOLUTE)
  get_filename_component(name "${kernel}" NAME_WE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tss/${target}")
  set(tiled "${dir}/${name}.tiled.c")
  set(header "${dir}/${name}.tiles.h")

  set(args predict "${src}" --size "${TSS_SIZES}" --mode "${TSS_MODE}")
  set(deps "${src}" "${TSS_EXECUTABLE}")
  if(TSS_PARALLEL)
    list(APPEND args --parallel)
  endif()
  if(TSS_MODEL)
    get_filename_component(model "${TSS_MODEL}" ABSOLUTE)
    list(APPEND args --model "${model}")
    file(GLOB model_files "${model}/model.json" "${model}/weights*.bin")
    list(APPEND deps ${model_files})
  endif()
  # The arguments as a file rewritten only when they change: the rule below
  # depends on it, so new SIZES rerun tss and an unchanged configure does not.
  string(REPLACE ";" " " request "${args}")
  file(CONFIGURE OUTPUT "${dir}/${name}.request" CONTENT "${request}\n")
  list(APPEND deps "${dir}/${name}.request")

  add_custom_command(
    OUTPUT "${tiled}" "${header}"
    COMMAND "${TSS_EXECUTABLE}" ${args} --emit header --emit-to "${header}" -o "${tiled}"
    # tss leaves unchanged files alone; Make (no restat) would then run it on every build.
    COMMAND "${CMAKE_COMMAND}" -E touch_nocreate "${tiled}" "${header}"
    DEPENDS ${deps}
    COMMENT "tss: choosing tile sizes for ${kernel} (${TSS_SIZES})"
    VERBATIM)
  target_sources(${target} PRIVATE "${tiled}")
  target_include_directories(${target} PRIVATE "${dir}")
  set_source_files_properties("${tiled}" PROPERTIES OBJECT_DEPENDS "${header}")
endfunction()
