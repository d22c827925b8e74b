//! Member pictures as production's web front end stores them in `image_url`: `avatar:N` (one of
//! its twelve preset faces), the older `avatar:{json}` (a face described field by field), or a
//! web address. Pure parsing, so the console never shows `avatar:3` as text or a broken image.
//!
//! Hand-written: the two forms are a prefix, an index and a JSON object (read with serde_json);
//! no crate knows this service-specific notation.

use serde::Deserialize;

/// The prefix production's front end writes before a preset index or a JSON face.
pub const PREFIX: &str = "avatar:";

/// How a face's hair is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hair {
    Short,
    Curly,
    Long,
    Spiky,
    Bald,
    Ponytail,
}

impl Hair {
    fn from_name(name: &str) -> Hair {
        match name {
            "curly" => Hair::Curly,
            "long" => Hair::Long,
            "spiky" => Hair::Spiky,
            "bald" => Hair::Bald,
            "ponytail" => Hair::Ponytail,
            _ => Hair::Short,
        }
    }
}

/// What a face wears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accessory {
    None,
    Glasses,
    Hat,
}

/// A face to draw: colours are checked `#rgb`/`#rrggbb` values, never raw text from the service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Face {
    pub background: String,
    pub skin: String,
    pub hair_colour: String,
    pub hair: Hair,
    pub eyes: String,
    pub mouth: String,
    pub blush: bool,
    pub accessory: Accessory,
}

/// What a member's `image_url` shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picture {
    /// One of the presets, by index (`avatar:N`).
    Preset(usize),
    /// A face described in the older `avatar:{json}` form.
    Drawn(Face),
    /// A web address to load (falls back to initials when it fails to load).
    Url(String),
    /// A web address on a host the operator does not allow (`config.json` `picture_hosts`):
    /// never loaded, so whoever views the member tells its host nothing; initials, with the
    /// host named.
    NotAllowed { host: String },
    /// Nothing usable: the member's initials.
    Initials,
}

/// One preset: the colour a person recognises it by (a translation key) and its face.
pub struct Preset {
    pub colour: &'static str,
    background: &'static str,
    skin: &'static str,
    hair_colour: &'static str,
    hair: Hair,
    eyes: &'static str,
    accessory: Accessory,
    blush: bool,
}

const fn preset(
    colour: &'static str,
    (background, skin, hair_colour, eyes): (&'static str, &'static str, &'static str, &'static str),
    hair: Hair,
    accessory: Accessory,
    blush: bool,
) -> Preset {
    Preset {
        colour,
        background,
        skin,
        hair_colour,
        hair,
        eyes,
        accessory,
        blush,
    }
}

/// The presets in production's order: `avatar:N` is `PRESETS[N]` (wisefood-ui
/// app/utils/avatarPresets.ts has twelve; their background, skin, hair and eye colours, hair
/// style and accessory are what tells them apart, so those are kept here; the drawing is ours).
pub const PRESETS: [Preset; 12] = [
    preset(
        "pink",
        ("#fce4ec", "#ffdbac", "#4a3728", "#5d4037"),
        Hair::Curly,
        Accessory::None,
        true,
    ),
    preset(
        "blue",
        ("#e3f2fd", "#ffe0bd", "#1a1a2e", "#263238"),
        Hair::Short,
        Accessory::Glasses,
        false,
    ),
    preset(
        "yellow",
        ("#fff9c4", "#f5cba7", "#d4a373", "#5d4037"),
        Hair::Long,
        Accessory::None,
        true,
    ),
    preset(
        "green",
        ("#c8e6c9", "#ffe4c4", "#8d5524", "#3e2723"),
        Hair::Spiky,
        Accessory::None,
        false,
    ),
    preset(
        "purple",
        ("#e1bee7", "#deb887", "#2c1810", "#4e342e"),
        Hair::Ponytail,
        Accessory::None,
        true,
    ),
    preset(
        "teal",
        ("#b2dfdb", "#e8beac", "#6d6d6d", "#37474f"),
        Hair::Bald,
        Accessory::Glasses,
        false,
    ),
    preset(
        "orange",
        ("#ffe0b2", "#ffdab9", "#c0392b", "#33691e"),
        Hair::Curly,
        Accessory::None,
        true,
    ),
    preset(
        "lavender",
        ("#d1c4e9", "#ffecd2", "#5c3d2e", "#6a5acd"),
        Hair::Long,
        Accessory::None,
        true,
    ),
    preset(
        "coral",
        ("#ffccbc", "#c68642", "#1c1c1c", "#3e2723"),
        Hair::Short,
        Accessory::None,
        false,
    ),
    preset(
        "mint",
        ("#c8e6c9", "#ffdbac", "#654321", "#558b2f"),
        Hair::Ponytail,
        Accessory::Hat,
        true,
    ),
    preset(
        "peach",
        ("#ffefd5", "#f5deb3", "#8b7355", "#8b4513"),
        Hair::Curly,
        Accessory::None,
        true,
    ),
    preset(
        "grey",
        ("#eceff1", "#d2b48c", "#2d2d2d", "#455a64"),
        Hair::Spiky,
        Accessory::Glasses,
        false,
    ),
];

impl Preset {
    /// The preset as a face to draw.
    pub fn face(&self) -> Face {
        Face {
            background: self.background.into(),
            skin: self.skin.into(),
            hair_colour: self.hair_colour.into(),
            hair: self.hair,
            eyes: self.eyes.into(),
            mouth: "#b86b6b".into(),
            blush: self.blush,
            accessory: self.accessory,
        }
    }
}

/// The stored form of preset `index`.
pub fn preset_value(index: usize) -> String {
    format!("{PREFIX}{index}")
}

/// The older JSON form, every field optional (a face missing one gets a neutral default).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct LegacyFace {
    bg_color: Option<String>,
    skin_color: Option<String>,
    hair_color: Option<String>,
    hair_style: Option<String>,
    eye_color: Option<String>,
    mouth_color: Option<String>,
    has_blush: Option<bool>,
    accessory: Option<String>,
}

/// `value` when it is a `#rgb` or `#rrggbb` colour, else `fallback`: what reaches the drawing is
/// always a colour.
fn colour(value: Option<String>, fallback: &str) -> String {
    match value {
        Some(v)
            if v.starts_with('#')
                && matches!(v.len(), 4 | 7)
                && v[1..].chars().all(|c| c.is_ascii_hexdigit()) =>
        {
            v.to_ascii_lowercase()
        }
        _ => fallback.into(),
    }
}

/// The leading decimal digits of `text` as an index, the way production's front end reads it
/// (`parseInt`): `"3"` and `"3x"` are 3.
fn leading_index(text: &str) -> Option<usize> {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// What `image_url` shows. Never fails: what cannot be read is shown as initials.
pub fn parse(image_url: Option<&str>) -> Picture {
    let Some(value) = image_url.map(str::trim).filter(|v| !v.is_empty()) else {
        return Picture::Initials;
    };
    if let Some(rest) = value.strip_prefix(PREFIX) {
        if let Some(index) = leading_index(rest).filter(|i| *i < PRESETS.len()) {
            return Picture::Preset(index);
        }
        return match serde_json::from_str::<LegacyFace>(rest) {
            Ok(face) => Picture::Drawn(Face {
                background: colour(face.bg_color, "#eceff1"),
                skin: colour(face.skin_color, "#f5cba7"),
                hair_colour: colour(face.hair_color, "#4a3728"),
                hair: Hair::from_name(face.hair_style.as_deref().unwrap_or("short")),
                eyes: colour(face.eye_color, "#3e2723"),
                mouth: colour(face.mouth_color, "#b86b6b"),
                blush: face.has_blush.unwrap_or(false),
                accessory: match face.accessory.as_deref() {
                    Some("glasses") => Accessory::Glasses,
                    Some("hat") => Accessory::Hat,
                    _ => Accessory::None,
                },
            }),
            Err(_) => Picture::Initials,
        };
    }
    if crate::paths::is_web_url(value) {
        Picture::Url(value.to_string())
    } else {
        Picture::Initials
    }
}

/// What `image_url` shows to someone viewing it under the operator's `hosts`: as [`parse`],
/// but a web address only when the policy lets the page load it (issue 36 finding 10).
pub fn shown(image_url: Option<&str>, hosts: &[String]) -> Picture {
    match parse(image_url) {
        Picture::Url(url) if larder_contract::hosting::picture_allowed(&url, hosts) => {
            Picture::Url(url)
        }
        Picture::Url(url) => Picture::NotAllowed {
            host: web_host(&url),
        },
        other => other,
    }
}

/// What the picker stores for "no picture": a stored empty text stays (both mean none, and a
/// `null` would be a change nobody made); anything else is cleared.
pub fn none_chosen(stored: Option<&str>) -> Option<String> {
    stored.filter(|s| s.is_empty()).map(str::to_string)
}

/// What the picker stores for a typed web address: the stored value itself while the typing
/// differs from it only by spaces at its ends (production keeps them, and [`parse`] trims).
pub fn url_chosen(stored: Option<&str>, typed: &str) -> Option<String> {
    larder_api::types::edited_optional_text(stored, typed)
}

/// The host a web address names (without credentials or port), to say where a picture is.
pub fn web_host(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    host.to_ascii_lowercase()
}

/// Up to two initials of `name` (first letters of its first and last words), upper-cased.
pub fn initials(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let first = words.first().and_then(|w| w.chars().next());
    let last = (words.len() > 1)
        .then(|| words.last().and_then(|w| w.chars().next()))
        .flatten();
    let letters: String = first.into_iter().chain(last).collect();
    larder_contract::text::uppercase(&letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_untouched_picture_is_stored_as_it_was() {
        assert_eq!(none_chosen(Some("")), Some(String::new()));
        assert_eq!(none_chosen(Some("avatar:3")), None);
        assert_eq!(none_chosen(None), None);
        let spaced = " https://x.example/a.png ";
        let shown = match parse(Some(spaced)) {
            Picture::Url(url) => url,
            other => panic!("{other:?}"),
        };
        assert_eq!(url_chosen(Some(spaced), &shown).as_deref(), Some(spaced));
        assert_eq!(
            url_chosen(Some(spaced), " https://y.example/b.png").as_deref(),
            Some("https://y.example/b.png")
        );
        assert_eq!(url_chosen(Some(spaced), " "), None);
    }

    #[test]
    fn an_index_is_a_preset() {
        assert_eq!(parse(Some("avatar:3")), Picture::Preset(3));
        assert_eq!(parse(Some("avatar:0")), Picture::Preset(0));
        assert_eq!(parse(Some("avatar:11")), Picture::Preset(11));
        // As production's front end reads it (parseInt): trailing text is ignored.
        assert_eq!(parse(Some("avatar:7x")), Picture::Preset(7));
        assert_eq!(preset_value(5), "avatar:5");
    }

    #[test]
    fn an_index_past_the_presets_or_garbage_shows_initials_not_text() {
        assert_eq!(parse(Some("avatar:12")), Picture::Initials);
        assert_eq!(parse(Some("avatar:")), Picture::Initials);
        assert_eq!(parse(Some("avatar:nope")), Picture::Initials);
        assert_eq!(parse(Some("avatar:{broken")), Picture::Initials);
        assert_eq!(parse(Some("not a url")), Picture::Initials);
        assert_eq!(parse(Some("javascript:alert(1)")), Picture::Initials);
        assert_eq!(parse(None), Picture::Initials);
        assert_eq!(parse(Some("  ")), Picture::Initials);
    }

    #[test]
    fn the_json_form_is_drawn_with_checked_colours() {
        let stored = r##"avatar:{"bgColor":"#FFCCBC","skinColor":"#c68642","hairColor":"red\" onload=\"x","hairStyle":"ponytail","eyeColor":"#333","eyeStyle":"round","mouthColor":"#a05252","hasBlush":true,"accessory":"hat"}"##;
        let Picture::Drawn(face) = parse(Some(stored)) else {
            panic!("not drawn")
        };
        assert_eq!(face.background, "#ffccbc");
        assert_eq!(face.eyes, "#333");
        // Not a colour: the default, never the text.
        assert_eq!(face.hair_colour, "#4a3728");
        assert_eq!(face.hair, Hair::Ponytail);
        assert!(face.blush);
        assert_eq!(face.accessory, Accessory::Hat);
        // An empty object is a face of defaults.
        assert!(matches!(parse(Some("avatar:{}")), Picture::Drawn(_)));
    }

    #[test]
    fn web_addresses_load_and_initials_are_short() {
        assert_eq!(
            parse(Some("https://img.example/a.png")),
            Picture::Url("https://img.example/a.png".into())
        );
        assert_eq!(initials("Mia"), "M");
        assert_eq!(initials("noah van der berg"), "NB");
        assert_eq!(initials("  "), "");
        assert_eq!(initials("élodie martin"), "ÉM");
    }

    /// Issue 36 finding 10: a web picture is loaded only from a host the operator allows;
    /// anything else shows initials and names its host.
    #[test]
    fn web_pictures_load_only_from_allowed_hosts() {
        let allowed = vec!["pictures.example.org".to_string()];
        assert_eq!(
            shown(Some("https://pictures.example.org/a.png"), &allowed),
            Picture::Url("https://pictures.example.org/a.png".into())
        );
        assert_eq!(
            shown(
                Some("https://tracker.example/pixel.png?who=owner"),
                &allowed
            ),
            Picture::NotAllowed {
                host: "tracker.example".into()
            }
        );
        assert_eq!(
            shown(Some("https://pictures.example.org/a.png"), &[]),
            Picture::NotAllowed {
                host: "pictures.example.org".into()
            }
        );
        assert_eq!(
            shown(Some("http://user:pw@Plain.Example:8080/x"), &allowed),
            Picture::NotAllowed {
                host: "plain.example".into()
            }
        );
        assert_eq!(shown(Some("avatar:2"), &[]), Picture::Preset(2));
    }

    #[test]
    fn every_preset_draws_a_face_of_colours() {
        for p in &PRESETS {
            let face = p.face();
            for c in [&face.background, &face.skin, &face.hair_colour, &face.eyes] {
                assert_eq!(colour(Some(c.clone()), "x"), *c);
            }
        }
    }
}
