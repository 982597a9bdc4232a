//! Errors. Bad input is an [`InputError`] naming the file, the field and the reason; the CLI
//! prints it on one line and exits with code 2.

use std::fmt;

/// A problem with user input: which file, which field, and why it is rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file (or `<flag>` / `<stdin>` for command-line input).
    pub file: String,
    /// The field inside the file (dotted path), or empty when the whole file is at fault.
    pub field: String,
    /// Why the value is rejected.
    pub reason: String,
}

impl InputError {
    /// Builds an input error.
    pub fn new(file: impl Into<String>, field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self { file: file.into(), field: field.into(), reason: reason.into() }
    }

    /// The same error attributed to another file (used when a parser runs before the file
    /// name is known).
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = file.into();
        self
    }
}

impl fmt::Display for InputError {
    /// One line (docs/spec.md §5.3), whatever the input: a control character that a reason
    /// quotes from the file (a newline a parser names, `&#10;` in an attribute) is escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A file left empty for the caller to fill (it is not known where the error arose) is
        // not printed as an empty name.
        if !self.file.is_empty() {
            write!(f, "{}: ", OneLine(&self.file))?;
        }
        if self.field.is_empty() {
            write!(f, "{}", OneLine(&self.reason))
        } else {
            write!(f, "field `{}`: {}", OneLine(&self.field), OneLine(&self.reason))
        }
    }
}

/// Text written with its control characters escaped (`\n`, `\u{0}`).
struct OneLine<'a>(&'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for InputError {}

/// Every error the library returns.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input (exit code 2).
    #[error(transparent)]
    Input(#[from] InputError),
    /// A solver backend failed for a reason other than the instance (exit code 2).
    #[error("solver backend {backend}: {reason}")]
    Backend {
        /// `ilp`, `smt` or `sat`.
        backend: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// A producer (algorithm, backend, paper file) emitted a schedule the checker rejects: a bug
    /// in the producer (exit code 2).
    #[error("{producer} produced a schedule the checker rejects: {reason}")]
    Rejected {
        /// Who produced it (`algorithm furthest-first`, `exact backend ilp`).
        producer: String,
        /// The first violations.
        reason: String,
    },
    /// An algorithm or encoding does not apply to the instance (exit code 2).
    #[error("{method} does not apply: {reason}")]
    NotApplicable {
        /// The method name.
        method: String,
        /// Why.
        reason: String,
    },
    /// Reading or writing a file failed (exit code 2).
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
}

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    /// The file, the field and the reason, each only when known.
    #[test]
    fn an_input_error_names_what_it_knows() {
        assert_eq!(InputError::new("a.toml", "network", "bad").to_string(), "a.toml: field `network`: bad");
        assert_eq!(InputError::new("a.toml", "", "bad").to_string(), "a.toml: bad");
        assert_eq!(InputError::new("", "network", "bad").to_string(), "field `network`: bad");
        assert_eq!(
            InputError::new("", "network", "bad").in_file("b.toml").to_string(),
            "b.toml: field `network`: bad"
        );
    }

    /// docs/spec.md §5.3: one line, even when the reason quotes a newline from the input.
    #[test]
    fn an_input_error_is_one_line_whatever_it_quotes() {
        let e = InputError::new("x.xml", "gpu[0].type", "not well-formed XML: expected '>' not '\n' at 1:2");
        assert_eq!(
            e.to_string(),
            "x.xml: field `gpu[0].type`: not well-formed XML: expected '>' not '\\n' at 1:2"
        );
    }
}
