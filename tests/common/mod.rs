pub mod diagram;
pub mod fixtures;
pub mod random;
pub mod reference;
pub mod seeded;
pub mod symmetry;
