//! The few `isl_ast_build_*` entry points that isl-rs 0.3 does not bind.
//!
//! isl-rs links ISL statically, so these symbols are present in the final
//! binary; we only declare them. Every wrapper takes ownership exactly as the
//! ISL C API documents (`__isl_take` / `__isl_keep`) and turns a null result
//! into an error carrying ISL's last message.

use isl_rs::{ASTExpr, ASTNode, ASTNodeType, Context, IdList, PwAff, Set, UnionMap, UnionPwAff};
use libc::{c_char, uintptr_t};

unsafe extern "C" {
    fn isl_ast_build_from_context(set: uintptr_t) -> uintptr_t;
    fn isl_ast_build_set_iterators(build: uintptr_t, iterators: uintptr_t) -> uintptr_t;
    fn isl_ast_build_node_from_schedule_map(build: uintptr_t, schedule: uintptr_t) -> uintptr_t;
    fn isl_ast_build_free(build: uintptr_t) -> uintptr_t;
    fn isl_ast_build_expr_from_pw_aff(build: uintptr_t, pa: uintptr_t) -> uintptr_t;
    fn isl_ast_build_expr_from_set(build: uintptr_t, set: uintptr_t) -> uintptr_t;
    fn isl_options_set_ast_build_atomic_upper_bound(ctx: uintptr_t, val: i32) -> i32;
    fn isl_options_set_ast_build_detect_min_max(ctx: uintptr_t, val: i32) -> i32;
    fn isl_options_set_ast_build_allow_else(ctx: uintptr_t, val: i32) -> i32;
    fn isl_ast_node_get_type(node: uintptr_t) -> i32;
    fn isl_ast_build_set_options(build: uintptr_t, options: uintptr_t) -> uintptr_t;
    fn isl_ctx_set_max_operations(ctx: uintptr_t, max: libc::c_ulong);
    fn isl_union_map_to_str(umap: uintptr_t) -> *mut c_char;
    fn isl_union_pw_aff_to_str(upa: uintptr_t) -> *mut c_char;
    fn isl_ctx_last_error_msg(ctx: uintptr_t) -> *const c_char;
}

/// ISL's text of a union map. isl-rs's `to_str` reads a null result as a
/// string (a segfault when ISL fails, e.g. after the watchdog's quota) and
/// leaks the buffer; this checks and frees it.
pub fn union_map_text(map: &UnionMap) -> Result<String, String> {
    owned_text(&map.get_ctx(), unsafe { isl_union_map_to_str(map.ptr) }, "isl_union_map_to_str")
}

/// ISL's text of a union piecewise affine expression (see [`union_map_text`]).
pub fn union_pw_aff_text(upa: &UnionPwAff) -> Result<String, String> {
    owned_text(&upa.get_ctx(), unsafe { isl_union_pw_aff_to_str(upa.ptr) }, "isl_union_pw_aff_to_str")
}

/// Copies and frees a string ISL allocated; null is ISL's failure.
fn owned_text(ctx: &Context, raw: *mut c_char, what: &str) -> Result<String, String> {
    if raw.is_null() {
        return Err(format!("{what} failed: {}", take_error(ctx)));
    }
    let text = unsafe { std::ffi::CStr::from_ptr(raw) }.to_string_lossy().into_owned();
    unsafe { libc::free(raw.cast()) };
    Ok(text)
}

/// Aborts every ISL computation of a context once a deadline passes, so
/// that a schedule or AST that ISL cannot find quickly fails (and the
/// caller falls back) instead of running for minutes. ISL counts only
/// simplex pivots as operations, and on SCoPs with integer divisions a
/// pivot can be slow, so a count alone does not bound time.
///
/// Declare it after the context it guards: it is dropped first, and its
/// drop stops the watch before the context is freed.
pub struct Watchdog {
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    pub fn arm(ctx: &Context, deadline: std::time::Instant) -> Self {
        let (stop, wait) = std::sync::mpsc::channel::<()>();
        let ptr = ctx.ptr;
        let thread = std::thread::spawn(move || {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(left) {
                // The context is alive: its owner joins this thread before
                // freeing it. The next pivot then fails with ISL's quota
                // error, which (unlike `isl_ctx_abort`) carries a message
                // that isl-rs can read.
                unsafe { isl_ctx_set_max_operations(ptr, 1) };
            }
        });
        Self { stop: Some(stop), thread: Some(thread) }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Type of an AST node. isl-rs 0.3.1 maps `isl_ast_node_type` off by one
/// (ISL numbers `for` from 1, isl-rs from 0, and panics on `user`), so the
/// value is read here and mapped by ISL's own numbering.
pub fn ast_node_type(node: &ASTNode) -> ASTNodeType {
    match unsafe { isl_ast_node_get_type(node.ptr) } {
        1 => ASTNodeType::For,
        2 => ASTNodeType::If,
        3 => ASTNodeType::Block,
        4 => ASTNodeType::Mark,
        5 => ASTNodeType::User,
        _ => ASTNodeType::Error,
    }
}

/// Owned `isl_ast_build`, freed on drop.
pub struct AstBuild {
    ptr: uintptr_t,
}

impl AstBuild {
    /// `isl_ast_build_from_context`: `context` constrains the parameters
    /// (problem sizes, tile sizes) so that ISL can drop redundant guards.
    pub fn from_context(context: Set) -> Result<Self, String> {
        let ctx = context.get_ctx();
        let mut context = context;
        context.do_not_free_on_drop();
        let ptr = unsafe { isl_ast_build_from_context(context.ptr) };
        check(&ctx, ptr, "isl_ast_build_from_context")?;
        Ok(Self { ptr })
    }

    /// Names the generated loop iterators, one id per schedule dimension.
    pub fn set_iterators(self, ctx: &Context, mut ids: IdList) -> Result<Self, String> {
        ids.do_not_free_on_drop();
        self.update(ctx, ids.ptr, isl_ast_build_set_iterators, "isl_ast_build_set_iterators")
    }

    /// AST generation options, e.g. `{ [c0, c1] -> atomic[x] }`.
    pub fn set_options(self, ctx: &Context, mut options: UnionMap) -> Result<Self, String> {
        options.do_not_free_on_drop();
        self.update(ctx, options.ptr, isl_ast_build_set_options, "isl_ast_build_set_options")
    }

    /// Scans `schedule` (statement instance -> schedule point). The map need
    /// not be single-valued: ISL emits the instance at every point it maps to.
    pub fn node_from_schedule_map(&self, ctx: &Context, mut schedule: UnionMap) -> Result<ASTNode, String> {
        schedule.do_not_free_on_drop();
        let ptr =
            self.call(ctx, schedule.ptr, isl_ast_build_node_from_schedule_map, "isl_ast_build_node_from_schedule_map")?;
        Ok(ASTNode { ptr, should_free_on_drop: true })
    }

    /// An expression computing `pa`, a piecewise affine function of the
    /// parameters (the build's context tells ISL which pieces cannot occur).
    pub fn expr_from_pw_aff(&self, ctx: &Context, mut pa: PwAff) -> Result<ASTExpr, String> {
        pa.do_not_free_on_drop();
        let ptr = self.call(ctx, pa.ptr, isl_ast_build_expr_from_pw_aff, "isl_ast_build_expr_from_pw_aff")?;
        Ok(ASTExpr { ptr, should_free_on_drop: true })
    }

    /// A condition that holds exactly on `set`, a set of parameter values,
    /// within the build's context.
    pub fn expr_from_set(&self, ctx: &Context, mut set: Set) -> Result<ASTExpr, String> {
        set.do_not_free_on_drop();
        let ptr = self.call(ctx, set.ptr, isl_ast_build_expr_from_set, "isl_ast_build_expr_from_set")?;
        Ok(ASTExpr { ptr, should_free_on_drop: true })
    }

    /// `f(build, arg)` for an ISL function that keeps the build and takes
    /// `arg` (released by the caller), with its null result as an error.
    fn call(&self, ctx: &Context, arg: uintptr_t, f: IslFn, what: &str) -> Result<uintptr_t, String> {
        let ptr = unsafe { f(self.ptr, arg) };
        check(ctx, ptr, what)?;
        Ok(ptr)
    }

    /// `f(build, arg)` for an ISL function that takes both and returns the
    /// updated build: the old pointer is ISL's whatever happens.
    fn update(mut self, ctx: &Context, arg: uintptr_t, f: IslFn, what: &str) -> Result<Self, String> {
        let ptr = unsafe { f(self.ptr, arg) };
        self.ptr = 0;
        check(ctx, ptr, what)?;
        Ok(Self { ptr })
    }
}

/// An `isl_ast_build_*` function of the build and one other object.
type IslFn = unsafe extern "C" fn(uintptr_t, uintptr_t) -> uintptr_t;

impl Drop for AstBuild {
    fn drop(&mut self) {
        if self.ptr != 0 {
            unsafe { isl_ast_build_free(self.ptr) };
        }
    }
}

/// AST-generation options tss relies on: `atomic_upper_bound` keeps one loop
/// per schedule dimension instead of splitting on `min` upper bounds,
/// `detect_min_max` prints `min`/`max` instead of nested conditionals.
pub fn set_ast_options(ctx: &Context) {
    unsafe {
        isl_options_set_ast_build_atomic_upper_bound(ctx.ptr, 1);
        isl_options_set_ast_build_detect_min_max(ctx.ptr, 1);
        isl_options_set_ast_build_allow_else(ctx.ptr, 1);
    }
}

fn check(ctx: &Context, ptr: uintptr_t, what: &str) -> Result<(), String> {
    if ptr == 0 {
        return Err(format!("{what} failed: {}", take_error(ctx)));
    }
    Ok(())
}

/// ISL's last error message, cleared. isl-rs's `last_error_msg` reads a
/// null message (a failure ISL did not describe) as a string.
fn take_error(ctx: &Context) -> String {
    let raw = unsafe { isl_ctx_last_error_msg(ctx.ptr) };
    let msg = if raw.is_null() {
        "no message from ISL".to_string()
    } else {
        unsafe { std::ffi::CStr::from_ptr(raw) }.to_string_lossy().into_owned()
    };
    ctx.reset_error();
    msg
}
