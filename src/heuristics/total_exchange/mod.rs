//! Total exchange on linear arrays and rings (paper 004). PLACEHOLDER: being implemented.
use super::Method;

/// The registered total-exchange algorithms.
pub static METHODS: &[Method] = &[];
