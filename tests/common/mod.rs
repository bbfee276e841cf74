pub mod diagram;
pub mod fixtures;
pub mod reference;
