//! The `&'static str` names inside results (algorithm, backend and claim names), read back
//! from a report or a result cache (`report --cache`, `merge`). Each distinct text is leaked
//! once and reused, so reading files costs their distinct names, not their size.

use serde::{Deserialize, Deserializer};
use std::collections::HashSet;
use std::sync::Mutex;

/// A name read back through [`name`] or [`optional`]. Fields spell their type through this
/// alias so that serde's derive does not take them for text borrowed from its input.
pub type Name = &'static str;

static NAMES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

/// The one `&'static str` holding `text`.
pub fn intern(text: String) -> &'static str {
    let mut names = NAMES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let names = names.get_or_insert_with(HashSet::new);
    match names.get(text.as_str()) {
        Some(&name) => name,
        None => {
            let name: &'static str = Box::leak(text.into_boxed_str());
            names.insert(name);
            name
        }
    }
}

/// Deserialises a name (`#[serde(deserialize_with = "crate::names::name")]`).
pub fn name<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    String::deserialize(d).map(intern)
}

/// Deserialises an optional name.
pub fn optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'static str>, D::Error> {
    Option::<String>::deserialize(d).map(|o| o.map(intern))
}

#[cfg(test)]
mod tests {
    #[test]
    fn equal_names_share_one_string() {
        let (a, b) = (super::intern("furthest-first".into()), super::intern("furthest-first".into()));
        assert_eq!(a.as_ptr(), b.as_ptr());
    }
}
