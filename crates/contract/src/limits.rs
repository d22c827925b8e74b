//! The paging and search limits of wire-notes, shared by the service that enforces them and the
//! clients that stay inside them.

/// The largest `limit` of a listing or a search.
pub const MAX_PAGE_SIZE: u32 = 1000;
/// The `limit` of a listing when none is sent.
pub const DEFAULT_PAGE_SIZE: u32 = 100;
/// The `limit` of a search when none is sent.
pub const DEFAULT_SEARCH_LIMIT: u32 = 10;
/// The `facet_limit` of a search when none is sent (at most [`MAX_PAGE_SIZE`]).
pub const DEFAULT_FACET_LIMIT: u32 = 50;
/// `offset + limit` of a search may not pass this.
pub const MAX_SEARCH_WINDOW: u32 = 10_000;
/// The error title of a search past the limits above.
pub const INVALID_PAGINATION: &str = "InvalidPagination";
/// The most guidelines one `guidelines/by-guide/{urn}/import` takes.
pub const MAX_GUIDELINE_IMPORT: usize = 1000;
/// The upload limit of the reference service when `--max-upload` is not given (1 GiB).
pub const DEFAULT_MAX_UPLOAD: u64 = 1 << 30;

/// Bytes of one guideline import's body (the reference service's cap, which 1000 guidelines fit);
/// the console imports files up to this size (in calls of [`MAX_GUIDELINE_IMPORT`] items).
pub const MAX_GUIDELINE_IMPORT_BYTES: usize = 8 << 20;

/// Bytes of one passage replacement's body (the reference service's cap, which
/// [`MAX_REPLACED_PASSAGES`] passages fit); the console reads replacement files up to this size.
pub const MAX_PASSAGE_REPLACE_BYTES: usize = 32 << 20;

/// Passages one bulk replacement may carry (the reference service's cap; production has none).
pub const MAX_REPLACED_PASSAGES: usize = 20_000;

/// Members a household create may carry (the reference service's cap; production has none).
pub const MAX_MEMBERS_ON_CREATE: usize = 100;

/// Members one household may hold (the reference service's cap).
pub const MAX_MEMBERS_PER_HOUSEHOLD: usize = 1000;

/// `fq` filters one search may carry (production answers a 500 past a thousand).
pub const MAX_FILTERS: usize = 50;

/// `sort` keys one search may carry.
pub const MAX_SORT_KEYS: usize = 10;

/// Facet fields one search may ask for.
pub const MAX_FACET_FIELDS: usize = 20;

/// Concurrent requests a caller keeps open to the data API (interface.md §8).
pub const DATA_CONNECTIONS: usize = 3;

/// Concurrent requests a caller keeps open to the systemic API (interface.md §8).
pub const SYSTEM_CONNECTIONS: usize = 10;

/// Bytes of JSON one member's profile may take, as stored (the reference service's cap;
/// production has none). `households/me` carries every member with their profile, so this,
/// [`MAX_IMAGE_URL_CHARS`] and [`MAX_MEMBERS_PER_HOUSEHOLD`] bound its answer to about 50 MiB
/// at worst (about 17 MiB when pictures are short, as `avatar:N` is).
pub const MAX_PROFILE_BYTES: usize = 16 << 10;

/// Characters of a member's `image_url` (the reference service's cap; production has none).
pub const MAX_IMAGE_URL_CHARS: u32 = 8 << 10;

/// Bytes of stored household, member and profile documents one page of the administrator's
/// household listing composes (the reference service's cap): past it the page ends early, after
/// at least one household; the next page starts at `offset` plus the households returned.
pub const MAX_HOUSEHOLD_PAGE_BYTES: usize = 32 << 20;

/// Bytes of `highlight_pre_tag` and of `highlight_post_tag`: each is copied once per marked word.
pub const MAX_HIGHLIGHT_TAG_LEN: usize = 64;

/// Fields one search may highlight.
pub const MAX_HIGHLIGHT_FIELDS: usize = 20;

/// Bytes of `_highlight` fragments one hit carries; a field whose fragment would pass it is left
/// out, so a page of 1,000 hits carries at most 16 MB of highlights.
pub const MAX_HIGHLIGHT_BYTES_PER_HIT: usize = 16 * 1024;

/// Values below a record's top level (free-form objects such as an article's `extras`) that the
/// search index keeps per record for filters, sorting and facets; the rest stay in the stored
/// document only.
pub const MAX_NESTED_VALUES: usize = 256;

/// Bytes of JSON one stored record may take (the reference service's cap; production has none).
/// A create's body is at most 2 MiB, but PATCH, PUT and enhance could otherwise grow a record
/// field by field; a write that would pass it is refused (413) and changes nothing. With
/// [`MAX_PAGE_BYTES`] it bounds what one read can build.
pub const MAX_RECORD_BYTES: usize = 4 << 20;

/// Bytes of stored documents one page of a search or a by-parent listing carries (the reference
/// service's cap): past it the page ends early, after at least one record, and the next page
/// starts at `offset` plus the records returned (`total` still counts every hit). With
/// [`MAX_RECORD_BYTES`] and [`MAX_HIGHLIGHT_BYTES_PER_HIT`], a search answer stays under about
/// 52 MiB however large the records are.
pub const MAX_PAGE_BYTES: usize = 32 << 20;

/// Bytes of JSON a record's `enhancements` trail may take: older events go first. An event
/// alone is at most about 3 × 2 × [`MAX_ENHANCEMENT_VALUE_BYTES`] plus its names, so the newest
/// always fits.
pub const MAX_ENHANCEMENT_HISTORY_BYTES: usize = 128 << 10;

/// Bytes of JSON of one `before` or `after` value an enhancement event keeps: a larger value is
/// left out of the event (the key is absent and named in the event's `omitted`); the record
/// itself still holds the value written.
pub const MAX_ENHANCEMENT_VALUE_BYTES: usize = 8 << 10;

/// How many enhancement events a record keeps in its `enhancements` (newest last): each carries
/// the changed fields' values before and after, so an unbounded trail would let repeated enhances
/// grow one record, its cached answer and its index entry without end. Older events go; who ran
/// each stays in the server's `enhance_runs` table.
pub const MAX_ENHANCEMENT_EVENTS: usize = 64;
