//! Timestamps as the services write them (production.md §9): just written they end in `Z` or
//! an offset; read back from production's database they have no zone
//! (`2026-11-26T17:42:43.282604`) and mean UTC. A browser's `Date` would read the zone-less form
//! as local time, so every timestamp goes through [`as_utc`] before it is parsed or shown.

/// The timestamp with its zone said: a zone-less date-time gets `Z`, fraction digits beyond
/// milliseconds are cut to three (what `Date` reads everywhere). A date alone, a timestamp that
/// already has `Z` or an offset, and text that is not a timestamp come back unchanged.
pub fn as_utc(iso: &str) -> String {
    normalise(iso).unwrap_or_else(|| iso.to_string())
}

/// The zone-said form of a date-time, or `None` when `iso` is not one.
fn normalise(iso: &str) -> Option<String> {
    let (date, time) = iso.split_once('T').filter(|(d, _)| is_date(d))?;
    let (clock, zone) = match time.find(['Z', 'z', '+', '-']) {
        Some(at) => time.split_at(at),
        None => (time, ""),
    };
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    if !is_hms(hms) || !fraction.bytes().all(|b| b.is_ascii_digit()) || !valid_zone(zone) {
        return None;
    }
    let fraction = &fraction[..fraction.len().min(3)];
    let dot = if fraction.is_empty() { "" } else { "." };
    let zone = if zone.is_empty() || zone == "z" {
        "Z"
    } else {
        zone
    };
    Some(format!("{date}T{hms}{dot}{fraction}{zone}"))
}

/// The instant of a timestamp in Unix milliseconds (a zone-less one read as UTC), or `None`
/// for text that is not one. Years 1970 to 9999.
pub fn unix_ms(iso: &str) -> Option<i64> {
    // Only a recognised date-time is cut up below, so every slice is in bounds.
    let utc = normalise(iso)?;
    let (date, time) = utc.split_once('T')?;
    let number = |s: &str| s.parse::<i64>().ok();
    let (y, m, d) = (
        number(&date[..4])?,
        number(&date[5..7])?,
        number(&date[8..10])?,
    );
    let zone_at = time.find(['Z', '+', '-'])?;
    let (clock, zone) = time.split_at(zone_at);
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    let (h, min) = (number(&hms[..2])?, number(&hms[3..5])?);
    let s = if hms.len() > 5 {
        number(&hms[6..8])?
    } else {
        0
    };
    let millis = number(&format!("{fraction:0<3}"))?;
    let offset_min = match zone {
        "Z" => 0,
        _ => {
            let sign = if zone.starts_with('-') { -1 } else { 1 };
            let digits = zone[1..].replace(':', "");
            sign * (number(&digits[..2])? * 60 + number(&digits[2..])?)
        }
    };
    let days = days_from_civil(y, m, d);
    Some(((days * 86_400 + h * 3600 + min * 60 + s - offset_min * 60) * 1000) + millis)
}

/// The day number (days since 1970-01-01) of a `YYYY-MM-DD` date, or `None` for text that is
/// not one.
pub fn day_number(date: &str) -> Option<i64> {
    if !is_date(date) {
        return None;
    }
    let number = |s: &str| s.parse::<i64>().ok();
    let (y, m, d) = (
        number(&date[..4])?,
        number(&date[5..7])?,
        number(&date[8..10])?,
    );
    // `is_date` checks the form; a day past its month's end is not a date.
    (date_of(days_from_civil(y, m, d)) == date).then(|| days_from_civil(y, m, d))
}

/// The `YYYY-MM-DD` date of a day number (H. Hinnant's `civil_from_days`).
pub fn date_of(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `date` moved by `days` (negative: back), `YYYY-MM-DD`; `None` when `date` is not a date.
pub fn add_days(date: &str, days: i64) -> Option<String> {
    day_number(date).map(|day| date_of(day + days))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    s.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && digits(&s[..4])
        && digits(&s[5..7])
        && digits(&s[8..])
}

/// `HH:MM` or `HH:MM:SS`.
fn is_hms(s: &str) -> bool {
    let b = s.as_bytes();
    (s.len() == 5 || (s.len() == 8 && b[5] == b':' && digits(&s[6..])))
        && b[2] == b':'
        && digits(&s[..2])
        && digits(&s[3..5])
}

/// Empty, `Z`, or `±HH:MM` / `±HHMM`.
fn valid_zone(zone: &str) -> bool {
    match zone {
        "" | "Z" | "z" => true,
        _ => {
            let rest = zone[1..].replace(':', "");
            rest.len() == 4 && digits(&rest) && zone.len() <= 6
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_count_across_months_years_and_leap_days() {
        assert_eq!(day_number("1970-01-01"), Some(0));
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(add_days("2026-12-31", 1).as_deref(), Some("2027-01-01"));
        assert_eq!(add_days("2028-03-01", -1).as_deref(), Some("2028-02-29"));
        assert_eq!(add_days("2026-03-01", -1).as_deref(), Some("2026-02-28"));
        assert_eq!(add_days("2026-11-28", -30).as_deref(), Some("2026-10-29"));
        // Every day of four centuries reads back as itself.
        for day in -1000..150_000 {
            assert_eq!(day_number(&date_of(day)), Some(day));
        }
        for bad in ["2026-02-30", "2026-13-01", "2026-1-01", "soon", ""] {
            assert_eq!(day_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn zone_less_timestamps_mean_utc() {
        assert_eq!(
            as_utc("2026-11-26T17:42:43.282604"),
            "2026-11-26T17:42:43.282Z"
        );
        assert_eq!(as_utc("2026-11-26T17:42:43"), "2026-11-26T17:42:43Z");
        assert_eq!(as_utc("2026-11-26T17:42:43.2"), "2026-11-26T17:42:43.2Z");
        assert_eq!(as_utc("2026-11-26T17:42"), "2026-11-26T17:42Z");
    }

    #[test]
    fn zoned_timestamps_keep_their_zone() {
        assert_eq!(
            as_utc("2026-11-26T17:42:43.282604Z"),
            "2026-11-26T17:42:43.282Z"
        );
        assert_eq!(as_utc("2026-11-26T17:42:43z"), "2026-11-26T17:42:43Z");
        assert_eq!(
            as_utc("2026-11-26T18:42:43+01:00"),
            "2026-11-26T18:42:43+01:00"
        );
        assert_eq!(
            as_utc("2026-11-26T12:42:43.5-0500"),
            "2026-11-26T12:42:43.5-0500"
        );
    }

    #[test]
    fn other_text_is_unchanged() {
        for text in [
            "2026-11-26",
            "",
            "soon",
            "2026-11-26Tnoon",
            "2026-11-26T17:42:43+1",
            "2026-1-26T17:42:43",
            "2026-11-26T17:42:43.x",
            "ää-11-26T17:42",
        ] {
            assert_eq!(as_utc(text), text);
            assert_eq!(unix_ms(text), None, "{text}");
        }
    }

    #[test]
    fn both_forms_are_the_same_instant() {
        let instant = 1_795_714_963_282; // 2026-11-26T17:42:43.282Z
        for form in [
            "2026-11-26T17:42:43.282604",
            "2026-11-26T17:42:43.282Z",
            "2026-11-26T17:42:43.282604Z",
            "2026-11-26T18:42:43.282+01:00",
            "2026-11-26T12:42:43.282-0500",
        ] {
            assert_eq!(unix_ms(form), Some(instant), "{form}");
        }
        assert_eq!(unix_ms("1970-01-01T00:00:00"), Some(0));
        assert_eq!(unix_ms("2024-02-29T12:00:00Z"), Some(1_709_208_000_000));
        // 0 to 6 fraction digits.
        let base = 1_795_714_963_000;
        for (form, ms) in [
            ("", 0),
            (".1", 100),
            (".28", 280),
            (".282", 282),
            (".2826", 282),
            (".28260", 282),
            (".282604", 282),
        ] {
            assert_eq!(
                unix_ms(&format!("2026-11-26T17:42:43{form}")),
                Some(base + ms),
                "{form}"
            );
        }
    }
}
