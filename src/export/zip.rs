//! A zip archive of stored (uncompressed) files, written around file bodies it never holds: the
//! caller streams each body elsewhere (a browser Blob), feeding its bytes to a [`Crc32`], then asks
//! for the local header and, at the end, for the central directory.
//!
//! Why not the `zip` crate: it pulls in its compression back ends and assumes a `Write + Seek`
//! target holding the bodies, which is exactly what must stay out of wasm memory here; the
//! stored format is APPNOTE 4.3's three fixed records. CSV compresses well, but deflate in wasm
//! would cost module size and time for files that are opened once; "stored" keeps the writer
//! small. The checksum is `crc32fast` (already in the lockfile through the server's flate2).

/// The CRC-32 of a file body, fed chunk by chunk.
#[derive(Default)]
pub struct Crc32(crc32fast::Hasher);

impl Crc32 {
    /// A checksum of nothing yet.
    pub fn new() -> Crc32 {
        Crc32::default()
    }

    /// Adds `bytes` to the checksum.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The checksum so far.
    pub fn value(&self) -> u32 {
        self.0.clone().finalize()
    }
}

/// Too large for a zip without its 64-bit extension, which this writer does not write.
#[derive(Debug, PartialEq)]
pub struct TooLarge;

struct Entry {
    name: String,
    crc: u32,
    size: u32,
    offset: u32,
}

/// The headers and directory of a stored zip, in the order the archive holds them.
pub struct ZipWriter {
    entries: Vec<Entry>,
    offset: u64,
    time: u16,
    date: u16,
}

/// MS-DOS time and date of an RFC 3339 timestamp (`2026-11-26T22:39:25Z`); 1980-01-01 when it
/// cannot be read.
pub fn dos_time_date(timestamp: &str) -> (u16, u16) {
    let number =
        |range: std::ops::Range<usize>| -> Option<u16> { timestamp.get(range)?.parse().ok() };
    let parts = (|| {
        Some((
            number(0..4)?,
            number(5..7)?,
            number(8..10)?,
            number(11..13)?,
            number(14..16)?,
            number(17..19)?,
        ))
    })();
    match parts {
        Some((year, month, day, hour, minute, second)) if year >= 1980 => (
            (hour << 11) | (minute << 5) | (second / 2),
            ((year - 1980) << 9) | (month << 5) | day,
        ),
        _ => (0, (1 << 5) | 1),
    }
}

fn u16le(out: &mut Vec<u8>, value: u16) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_le_bytes());
}

/// General purpose flag 11: names are UTF-8.
const UTF8_NAMES: u16 = 1 << 11;
/// Version 1.0 is enough to extract stored files.
const VERSION: u16 = 10;

impl ZipWriter {
    /// An archive whose files carry the time `timestamp` (RFC 3339).
    pub fn new(timestamp: &str) -> ZipWriter {
        let (time, date) = dos_time_date(timestamp);
        ZipWriter {
            entries: Vec::new(),
            offset: 0,
            time,
            date,
        }
    }

    /// The local header of the next file, whose body (`size` bytes with checksum `crc`) the
    /// caller places right after it.
    pub fn local_header(&mut self, name: &str, crc: u32, size: u64) -> Result<Vec<u8>, TooLarge> {
        let size32 = u32::try_from(size).map_err(|_| TooLarge)?;
        let offset = u32::try_from(self.offset).map_err(|_| TooLarge)?;
        let mut out = Vec::with_capacity(30 + name.len());
        u32le(&mut out, 0x0403_4b50);
        u16le(&mut out, VERSION);
        u16le(&mut out, UTF8_NAMES);
        u16le(&mut out, 0); // stored
        u16le(&mut out, self.time);
        u16le(&mut out, self.date);
        u32le(&mut out, crc);
        u32le(&mut out, size32);
        u32le(&mut out, size32);
        u16le(&mut out, name.len() as u16);
        u16le(&mut out, 0);
        out.extend_from_slice(name.as_bytes());
        self.offset += out.len() as u64 + size;
        self.entries.push(Entry {
            name: name.to_string(),
            crc,
            size: size32,
            offset,
        });
        Ok(out)
    }

    /// The central directory and its end record, which close the archive.
    pub fn finish(self) -> Result<Vec<u8>, TooLarge> {
        let start = u32::try_from(self.offset).map_err(|_| TooLarge)?;
        let mut out = Vec::new();
        for entry in &self.entries {
            u32le(&mut out, 0x0201_4b50);
            u16le(&mut out, VERSION);
            u16le(&mut out, VERSION);
            u16le(&mut out, UTF8_NAMES);
            u16le(&mut out, 0);
            u16le(&mut out, self.time);
            u16le(&mut out, self.date);
            u32le(&mut out, entry.crc);
            u32le(&mut out, entry.size);
            u32le(&mut out, entry.size);
            u16le(&mut out, entry.name.len() as u16);
            u16le(&mut out, 0); // extra
            u16le(&mut out, 0); // comment
            u16le(&mut out, 0); // disk
            u16le(&mut out, 0); // internal attributes
            u32le(&mut out, 0); // external attributes
            u32le(&mut out, entry.offset);
            out.extend_from_slice(entry.name.as_bytes());
        }
        let size = out.len() as u32;
        let count = self.entries.len() as u16;
        u32le(&mut out, 0x0605_4b50);
        u16le(&mut out, 0);
        u16le(&mut out, 0);
        u16le(&mut out, count);
        u16le(&mut out, count);
        u32le(&mut out, size);
        u32le(&mut out, start);
        u16le(&mut out, 0);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_u16(bytes: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([bytes[at], bytes[at + 1]])
    }

    fn read_u32(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    fn archive(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut zip = ZipWriter::new("2026-11-26T22:39:25Z");
        let mut out = Vec::new();
        for (name, body) in files {
            let mut crc = Crc32::new();
            for chunk in body.chunks(3) {
                crc.update(chunk);
            }
            out.extend(
                zip.local_header(name, crc.value(), body.len() as u64)
                    .unwrap(),
            );
            out.extend_from_slice(body);
        }
        out.extend(zip.finish().unwrap());
        out
    }

    /// Reads the archive back the way unzip does: from the end record through the directory to
    /// each local header, checking every checksum.
    fn read_back(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
        let end = bytes.len() - 22;
        assert_eq!(read_u32(bytes, end), 0x0605_4b50);
        let count = read_u16(bytes, end + 10) as usize;
        let mut at = read_u32(bytes, end + 16) as usize;
        let mut files = Vec::new();
        for _ in 0..count {
            assert_eq!(read_u32(bytes, at), 0x0201_4b50);
            let crc = read_u32(bytes, at + 16);
            let size = read_u32(bytes, at + 20) as usize;
            let name_len = read_u16(bytes, at + 28) as usize;
            let local = read_u32(bytes, at + 42) as usize;
            let name = String::from_utf8(bytes[at + 46..at + 46 + name_len].to_vec()).unwrap();
            assert_eq!(read_u32(bytes, local), 0x0403_4b50);
            assert_eq!(read_u32(bytes, local + 14), crc);
            let body_at = local + 30 + read_u16(bytes, local + 26) as usize;
            let body = bytes[body_at..body_at + size].to_vec();
            let mut check = crc32fast::Hasher::new();
            check.update(&body);
            assert_eq!(check.finalize(), crc, "checksum of {name}");
            files.push((name, body));
            at += 46 + name_len;
        }
        files
    }

    #[test]
    fn files_read_back_with_their_names_bodies_and_checksums() {
        let files: [(&str, &[u8]); 3] = [
            ("members.csv", b"id,name\r\n1,\"A, B\"\r\n"),
            ("profiles.csv", "id,notes\r\n1,Árvíztűrő\r\n".as_bytes()),
            ("empty.csv", b""),
        ];
        let back = read_back(&archive(&files));
        assert_eq!(back.len(), 3);
        for ((name, body), (read_name, read_body)) in files.iter().zip(&back) {
            assert_eq!(name, read_name);
            assert_eq!(body, &read_body.as_slice());
        }
    }

    #[test]
    fn the_crc_is_the_standard_one() {
        let mut crc = Crc32::new();
        crc.update(b"123456789");
        assert_eq!(crc.value(), 0xCBF4_3926);
    }

    #[test]
    fn times_are_dos_times() {
        // 2026-11-26 22:39:24 (DOS keeps even seconds).
        assert_eq!(
            dos_time_date("2026-11-26T22:39:25Z"),
            ((22 << 11) | (39 << 5) | 12, (46 << 9) | (11 << 5) | 26)
        );
        assert_eq!(dos_time_date("garbage"), (0, (1 << 5) | 1));
    }

    #[test]
    fn a_body_past_four_gigabytes_is_refused() {
        let mut zip = ZipWriter::new("2026-01-01T00:00:00Z");
        assert_eq!(zip.local_header("big", 0, 1 << 32), Err(TooLarge));
    }
}
