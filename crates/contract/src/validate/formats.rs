//! Plain predicates and normalisers for the formats the schemas name (URNs, UUIDs, URLs, dates,
//! file types), usable without a [`super::Problems`] list.

/// The production `Urn` pattern, as problems quote it.
pub(super) const URN_PATTERN: &str = r"^urn:[a-z0-9][a-z0-9\-._:/]{2,}$";

/// Whether `s` matches the production `Urn` pattern.
pub fn is_valid_urn(s: &str) -> bool {
    let Some(rest) = s.strip_prefix("urn:") else {
        return false;
    };
    let mut chars = rest.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && rest.chars().count() >= 3
        && chars.all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_' | ':' | '/')
        })
}

/// Whether `s` is a UUID in its canonical lower-case hyphenated form.
pub fn is_canonical_uuid(s: &str) -> bool {
    s.len() == 36
        && s.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_digit() || ('a'..='f').contains(&c),
        })
}

/// A UUID in any of the usual forms, in canonical form.
pub fn parse_uuid(s: &str) -> Option<String> {
    let hex: String = s
        .trim()
        .trim_start_matches("urn:uuid:")
        .trim_matches(|c| c == '{' || c == '}')
        .chars()
        .filter(|c| *c != '-')
        .collect();
    if hex.len() != 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let hex = hex.to_ascii_lowercase();
    Some(format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    ))
}

/// An absolute http(s) URL, normalised as pydantic echoes it (a bare host gets `/`).
pub fn normalise_url(s: &str) -> Result<String, &'static str> {
    let (scheme, rest) = s.split_once("://").ok_or("relative URL without a base")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err("scheme");
    }
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..host_end];
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = host.split(':').next().unwrap_or_default();
    if host.is_empty() {
        return Err("empty host");
    }
    if rest.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("invalid international domain name");
    }
    let tail = &rest[host_end..];
    let tail = if tail.starts_with('/') {
        tail.to_string()
    } else {
        format!("/{tail}")
    };
    Ok(format!(
        "{scheme}://{}{tail}",
        authority.to_ascii_lowercase()
    ))
}

/// Whether `s` is a calendar date `YYYY-MM-DD`.
pub fn is_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return false;
    };
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return false;
    }
    let (Ok(y), Ok(m), Ok(d)) = (y.parse::<u32>(), m.parse::<u32>(), d.parse::<u32>()) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// Whether `s` is an ISO-8601 date, or date and time (`T` or space, seconds and fraction
/// optional, `Z` or an offset optional).
pub fn is_datetime(s: &str) -> bool {
    if s.len() < 10 || !s.is_char_boundary(10) || !is_date(&s[..10]) {
        return false;
    }
    let rest = &s[10..];
    if rest.is_empty() {
        return true;
    }
    let Some(time) = rest.strip_prefix(['T', 't', ' ']) else {
        return false;
    };
    let (clock, _zone) = match time.find(['Z', 'z', '+', '-']) {
        Some(at) => {
            let zone = &time[at..];
            if !matches!(zone, "Z" | "z") && !is_utc_offset(zone) {
                return false;
            }
            (&time[..at], zone)
        }
        None => (time, ""),
    };
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    if fraction.is_empty() || !fraction.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let parts: Vec<&str> = hms.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return false;
    }
    let limits = [23, 59, 59];
    parts.iter().zip(limits).all(|(p, max)| {
        p.len() == 2
            && p.chars().all(|c| c.is_ascii_digit())
            && p.parse::<u32>().unwrap_or(99) <= max
    })
}

/// Whether `zone` is a UTC offset: a sign, then hours and optional minutes in digits, as
/// `+hh`, `+hhmm` or `+hh:mm`, hours at most 23 and minutes at most 59.
fn is_utc_offset(zone: &str) -> bool {
    let bytes = zone.as_bytes();
    let (sign, digits) = match bytes {
        [sign, h1, h2] => (sign, [h1, h2, &b'0', &b'0']),
        [sign, h1, h2, m1, m2] => (sign, [h1, h2, m1, m2]),
        [sign, h1, h2, b':', m1, m2] => (sign, [h1, h2, m1, m2]),
        _ => return false,
    };
    if !matches!(sign, b'+' | b'-') || !digits.iter().all(|d| d.is_ascii_digit()) {
        return false;
    }
    let number = |tens: &u8, ones: &u8| (tens - b'0') * 10 + (ones - b'0');
    number(digits[0], digits[1]) <= 23 && number(digits[2], digits[3]) <= 59
}

/// A file type as production stores it: a MIME type becomes an extension, a leading `.` goes,
/// lower-cased.
pub fn normalise_file_type(s: &str) -> String {
    let s = s.trim().trim_start_matches('.').to_ascii_lowercase();
    let Some((_, subtype)) = s.split_once('/') else {
        return s;
    };
    let known = match s.as_str() {
        "text/plain" => "txt",
        "image/jpeg" => "jpg",
        "image/svg+xml" => "svg",
        "text/markdown" => "md",
        "application/octet-stream" => "bin",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" => "xlsx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document" => "docx",
        "application/vnd.ms-excel" => "xls",
        "application/msword" => "doc",
        _ => "",
    };
    if known.is_empty() {
        subtype
            .trim_start_matches("x-")
            .split(['+', ';'])
            .next()
            .unwrap_or_default()
            .to_string()
    } else {
        known.to_string()
    }
}
