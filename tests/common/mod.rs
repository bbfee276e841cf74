pub mod diagram;
pub mod fixtures;
