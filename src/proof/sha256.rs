//! SHA-256 (FIPS 180-4), for the file hashes of a certificate folder's manifest, so that
//! `sha256sum` re-checks them, and for the keys of the report's result cache. The digest is the
//! `sha2` crate's; files are streamed through it, never read whole into memory (a proof can
//! reach gigabytes).

use sha2::{Digest, Sha256};
use std::fs::File;
use std::io;
use std::path::Path;

/// A SHA-256 fed piece by piece: bytes, and files streamed from disk.
#[derive(Debug, Clone, Default)]
pub struct Hasher(Sha256);

impl Hasher {
    /// Feeds `data`.
    pub fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }

    /// Feeds the contents of the file at `path`, streamed; returns how many bytes it had.
    pub fn update_file(&mut self, path: &Path) -> io::Result<u64> {
        io::copy(&mut File::open(path)?, self)
    }

    /// The digest of everything fed, as 64 lowercase hex digits.
    pub fn hex(self) -> String {
        self.0.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// The sink that [`io::copy`] streams a file into.
impl io::Write for Hasher {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.update(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The SHA-256 digest of `data` as 64 lowercase hex digits.
pub fn hex_digest(data: &[u8]) -> String {
    let mut hasher = Hasher::default();
    hasher.update(data);
    hasher.hex()
}

/// The SHA-256 digest of the file at `path` as 64 lowercase hex digits (what `sha256sum`
/// prints), and the file's size in bytes.
pub fn file_digest(path: &Path) -> io::Result<(String, u64)> {
    let mut hasher = Hasher::default();
    let bytes = hasher.update_file(path)?;
    Ok((hasher.hex(), bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The FIPS 180-4 examples, and a message that needs a second padding block.
    #[test]
    fn known_digests() {
        assert_eq!(hex_digest(b""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(hex_digest(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(
            hex_digest(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    /// A file streamed through the hasher, in pieces larger than one copy buffer, digests as
    /// its bytes do, and fed after other bytes as their concatenation does.
    #[test]
    fn a_streamed_file_digests_as_its_bytes() {
        let data: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), &data).unwrap();
        assert_eq!(file_digest(file.path()).unwrap(), (hex_digest(&data), data.len() as u64));
        let mut hasher = Hasher::default();
        hasher.update(b"key\0");
        hasher.update_file(file.path()).unwrap();
        assert_eq!(hasher.hex(), hex_digest(&[b"key\0".as_slice(), &data].concat()));
        assert!(file_digest(&file.path().join("missing")).is_err());
    }
}
