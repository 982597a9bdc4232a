//! Proof files stored compressed (docs/spec.md §7.1, "Certificate folders"): an LRAT proof may
//! be kept as `NAME.xz` or `NAME.zst`, and [`open`] reads every form as one stream of the proof's
//! text, decoded piece by piece, never whole in memory (a trimmed proof reaches hundreds of
//! megabytes, its compressed form a twentieth of that).
//!
//! The decoders are pure Rust, so the build needs no system library: `lzma-rust2` for xz (every
//! check type, concatenated streams and their padding, dictionaries up to 1 GiB) and `ruzstd`
//! for zstd (one frame, windows up to [`ZSTD_MAX_WINDOW`]; its content checksum, when it has
//! one, is compared here at its end, since `ruzstd` does not).
//! The form is named by the file's extension and must agree with its first bytes (the formats'
//! magic bytes; a plain proof starts with a digit or a comment). A file that does not decode
//! whole (a wrong or missing magic number, corrupt or truncated data, a failed checksum, data
//! after its end) gives an [`io::Error`] that carries an [`Undecodable`] ([`is_undecodable`]).

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use thiserror::Error;

/// How a file is stored: its text as it is, or compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// The text itself.
    Plain,
    /// xz (`.xz`).
    Xz,
    /// Zstandard (`.zst`).
    Zstd,
}

/// The largest xz dictionary read, in KiB: 1 GiB, far above `xz -9e`'s 64 MiB, so that a
/// header cannot make the decoder allocate more.
const XZ_MEMORY_LIMIT_KIB: u32 = 1 << 20;

/// The largest zstd window read: 2^27 bytes (128 MiB), `ruzstd`'s default and what `zstd -d`
/// accepts without `--memory`, so `zstd --long=27` and `--ultra -22` files are read.
pub const ZSTD_MAX_WINDOW: u64 = ruzstd::decoding::DEFAULT_MAX_WINDOW_SIZE;

impl Compression {
    /// Every form, plain first.
    pub const ALL: [Compression; 3] = [Compression::Plain, Compression::Xz, Compression::Zstd];

    /// The extension a file of this form carries after its own name (`""` when plain).
    pub fn extension(self) -> &'static str {
        match self {
            Compression::Plain => "",
            Compression::Xz => ".xz",
            Compression::Zstd => ".zst",
        }
    }

    /// The form a file's name says.
    pub fn of_path(path: &Path) -> Compression {
        let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        let mut compressed = Compression::ALL.into_iter().skip(1);
        compressed.find(|c| name.ends_with(c.extension())).unwrap_or(Compression::Plain)
    }

    /// The form whose magic bytes `start` begins with (plain when none).
    fn of_start(start: &[u8]) -> Compression {
        let magic = |c: &Compression| match c {
            Compression::Plain => false,
            Compression::Xz => start.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]),
            Compression::Zstd => start.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]),
        };
        Compression::ALL.into_iter().find(magic).unwrap_or(Compression::Plain)
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compression::Plain => "plain text",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
        })
    }
}

/// Why a file does not decode as the form its name says.
#[derive(Debug, Error)]
#[error("cannot decode as {form}: {reason}")]
pub struct Undecodable {
    /// The form its name says.
    pub form: Compression,
    /// What the decoder, or the check of its start or end, found.
    pub reason: String,
}

fn undecodable(form: Compression, reason: impl fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, Undecodable { form, reason: reason.to_string() })
}

/// Whether `error` says that a file does not decode ([`Undecodable`]), rather than that it could
/// not be read at all.
pub fn is_undecodable(error: &io::Error) -> bool {
    error.get_ref().is_some_and(|e| e.is::<Undecodable>())
}

/// Opens the file at `path` as a stream of its decoded bytes, in the form its name says
/// ([`Compression::of_path`]), after checking that its first bytes agree.
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead>> {
    let mut file = BufReader::with_capacity(1 << 20, File::open(path)?);
    let form = Compression::of_path(path);
    let found = Compression::of_start(file.fill_buf()?);
    if found != form {
        let reason = match found {
            Compression::Plain => format!("it does not start with the {form} magic bytes"),
            _ => format!(
                "it starts with the {found} magic bytes (a {found} file is named *{})",
                found.extension()
            ),
        };
        return Err(undecodable(form, reason));
    }
    Ok(match form {
        Compression::Plain => Box::new(file),
        Compression::Xz => {
            let xz = lzma_rust2::XzReader::new_mem_limit(file, true, XZ_MEMORY_LIMIT_KIB);
            Box::new(BufReader::with_capacity(1 << 20, Decoded { inner: xz, form }))
        }
        Compression::Zstd => {
            let decoder = ruzstd::decoding::StreamingDecoder::new(file).map_err(|e| undecodable(form, e))?;
            Box::new(BufReader::with_capacity(1 << 20, Decoded { inner: ZstdFrame(decoder), form }))
        }
    })
}

/// A decoder whose every failure is [`Undecodable`].
struct Decoded<R> {
    inner: R,
    form: Compression,
}

impl<R: Read> Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => {
                undecodable(self.form, format!("the file ends inside the stream ({e})"))
            }
            _ => undecodable(self.form, e),
        })
    }
}

/// One zstd frame, its content checksum compared at its end and nothing allowed after it.
struct ZstdFrame(ruzstd::decoding::StreamingDecoder<BufReader<File>, ruzstd::decoding::FrameDecoder>);

impl Read for ZstdFrame {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(buf)?;
        if n > 0 || buf.is_empty() {
            return Ok(n);
        }
        let frame = &self.0.decoder;
        if let Some(stored) = frame.get_checksum_from_data() {
            let content = frame.get_calculated_checksum();
            if content != Some(stored) {
                let content = content.map_or("none".into(), |c| format!("{c:08x}"));
                return Err(io::Error::other(format!(
                    "content checksum {content}, the frame says {stored:08x}"
                )));
            }
        }
        if !self.0.get_mut().fill_buf()?.is_empty() {
            return Err(io::Error::other("data after the frame's end (one frame is read)"));
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A committed plain proof and its forms written by `xz -9e` and `zstd -19 --long=27`.
    fn committed() -> (Vec<u8>, [PathBuf; 2]) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let plain =
            std::fs::read(root.join("instances/sccl/dgx1-allgather-c6r7.certificate/infeasible.lrat"));
        let forms = root.join("tests/data/certificates/dgx1-allgather-c6r7");
        (plain.unwrap(), [forms.join("infeasible.lrat.xz"), forms.join("infeasible.lrat.zst")])
    }

    fn read_all(path: &Path) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        open(path)?.read_to_end(&mut out)?;
        Ok(out)
    }

    /// Both forms decode to the proof, and a flipped byte, a cut, or a byte after the end is an
    /// [`Undecodable`] (never a panic) unless it leaves the decoded proof as it was (a field that
    /// the decoder does not read back, such as the frame's content size).
    #[test]
    fn both_forms_decode_and_any_damage_is_undecodable() {
        let (plain, forms) = committed();
        let dir = tempfile::tempdir().unwrap();
        for form in forms {
            let packed = std::fs::read(&form).unwrap();
            assert_eq!(read_all(&form).unwrap(), plain, "{}", form.display());
            let copy = dir.path().join(form.file_name().unwrap());
            // Every byte of the headers and the ends, and every seventh between them.
            let edge = |at: usize| at < 64 || at + 64 >= packed.len();
            for at in (0..packed.len()).filter(|&at| edge(at) || at % 7 == 0) {
                let mut bad = packed.clone();
                bad[at] ^= 0x55;
                std::fs::write(&copy, &bad).unwrap();
                match read_all(&copy) {
                    Ok(text) => assert_eq!(text, plain, "{}: byte {at}", form.display()),
                    Err(e) => assert!(is_undecodable(&e), "{}: byte {at}: {e}", form.display()),
                }
            }
            for damaged in [&packed[..packed.len() - 3], &[&packed[..], &[1]].concat()] {
                std::fs::write(&copy, damaged).unwrap();
                let e = read_all(&copy).unwrap_err();
                assert!(is_undecodable(&e), "{}: {e}", form.display());
            }
        }
    }

    /// The name and the first bytes must agree, and the form comes from the extension.
    #[test]
    fn the_name_and_the_magic_bytes_agree() {
        assert_eq!(Compression::of_path(Path::new("d/infeasible.lrat.xz")), Compression::Xz);
        assert_eq!(Compression::of_path(Path::new("d/infeasible.lrat.zst")), Compression::Zstd);
        assert_eq!(Compression::of_path(Path::new("d/infeasible.lrat")), Compression::Plain);
        let dir = tempfile::tempdir().unwrap();
        let (plain, xz) = (dir.path().join("p.lrat"), dir.path().join("p.lrat.xz"));
        std::fs::write(&plain, "1 0 2 0\n").unwrap();
        std::fs::write(&xz, "1 0 2 0\n").unwrap();
        assert_eq!(read_all(&plain).unwrap(), b"1 0 2 0\n");
        let e = read_all(&xz).unwrap_err();
        assert!(is_undecodable(&e));
        assert_eq!(e.to_string(), "cannot decode as xz: it does not start with the xz magic bytes");
        std::fs::copy(&committed().1[1], &plain).unwrap();
        let e = read_all(&plain).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot decode as plain text: it starts with the zstd magic bytes (a zstd file is named *.zst)"
        );
        assert!(!is_undecodable(&read_all(&dir.path().join("missing.xz")).unwrap_err()));
    }
}
