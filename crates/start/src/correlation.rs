//! The correlation headers of the start-up module's own requests (the password sign-in and its
//! first reads), as the API client sends them on every other (production.md §10.7): an
//! `X-Request-Id` production's later services log and echo, and `X-Client: larder/<version>`.
//! A refused sign-in shows the id, as the console's errors do, and the console's client reads
//! the handed-over answers with it. No `format!`: the module keeps core::fmt out for its size.

/// `X-Request-Id`.
pub const REQUEST_ID: &str = "X-Request-Id";
/// `X-Client`.
pub const CLIENT: &str = "X-Client";
/// What `X-Client` says (the workspace's version, as the API client's label).
pub const CLIENT_LABEL: &str = concat!("larder/", env!("CARGO_PKG_VERSION"));

/// The `n`th id of a page whose random part is `session`: `s`, 12 hex digits, a dash and `n`
/// in hex. The `s` keeps the start's ids apart from the console's client's, which have none.
pub fn request_id(session: u64, n: u32) -> String {
    let mut id = String::with_capacity(22);
    id.push('s');
    push_hex(&mut id, session & 0xffff_ffff_ffff, 12);
    id.push('-');
    push_hex(&mut id, u64::from(n), 1);
    id
}

/// `value` in lower-case hex, at least `width` digits.
fn push_hex(out: &mut String, value: u64, width: usize) {
    let digits = (64 - value.leading_zeros() as usize).div_ceil(4).max(width);
    for at in (0..digits).rev() {
        let nibble = ((value >> (at * 4)) & 0xf) as u32;
        out.push(char::from_digit(nibble, 16).unwrap_or('0'));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_what_production_honours_and_distinct() {
        let first = request_id(0xabc, 1);
        assert_eq!(first, "s000000000abc-1");
        assert_eq!(request_id(u64::MAX, 0x2f), "sffffffffffff-2f");
        assert_eq!(request_id(0, u32::MAX), "s000000000000-ffffffff");
        for id in [first, request_id(u64::MAX, u32::MAX)] {
            assert!(
                larder_api::machinery::correlation::is_valid_request_id(&id),
                "{id}"
            );
        }
        assert_ne!(request_id(7, 1), request_id(7, 2));
    }

    #[test]
    fn the_client_label_is_the_api_clients() {
        assert_eq!(
            CLIENT_LABEL,
            larder_api::machinery::correlation::CLIENT_LABEL
        );
        assert_eq!(REQUEST_ID, larder_api::machinery::correlation::REQUEST_ID);
        assert_eq!(CLIENT, larder_api::machinery::correlation::CLIENT);
    }
}
