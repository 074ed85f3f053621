pub mod frontend;
pub mod poly;
