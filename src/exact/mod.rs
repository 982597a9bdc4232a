//! The exact layer: encoders write a neutral integer model ([`ir`]), backends solve it.
//! PLACEHOLDER: being implemented.
