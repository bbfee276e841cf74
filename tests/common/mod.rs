pub mod fixtures;
pub mod reference;
