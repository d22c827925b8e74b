//! A member's picture as production's front end stores it (see `owners::avatar`): a preset or
//! older described face drawn as inline SVG (presentation attributes, which the strict
//! Content-Security-Policy allows; no inline style), a web picture that falls back to initials
//! when it fails to load, or initials. Also the picker an owner chooses one with.

use leptos::prelude::*;

use crate::household::rules::avatar::{self, Accessory, Face, Hair, Picture, PRESETS};
use crate::i18n::{t, tf, value_label};

/// A face drawn from its description (our drawing; only the colours and kinds come from data).
#[component]
fn FaceDrawing(face: Face) -> impl IntoView {
    let hair = face.hair_colour.clone();
    let hair_view = match face.hair {
        Hair::Bald => view! { <g></g> }.into_any(),
        Hair::Short => view! { <path d="M16 30 Q16 14 32 14 Q48 14 48 30 Q40 22 32 22 Q24 22 16 30Z" fill=hair/> }.into_any(),
        Hair::Curly => view! {
            <g fill=hair>
                <circle cx="20" cy="22" r="6"/><circle cx="28" cy="17" r="6"/><circle cx="37" cy="17" r="6"/><circle cx="44" cy="22" r="6"/>
            </g>
        }.into_any(),
        Hair::Long => view! { <path d="M14 48 L14 28 Q14 12 32 12 Q50 12 50 28 L50 48 L44 48 L44 28 Q32 20 20 28 L20 48Z" fill=hair/> }.into_any(),
        Hair::Spiky => view! { <path d="M16 28 L19 14 L25 22 L29 10 L34 21 L40 11 L42 22 L48 16 L48 28 Q32 20 16 28Z" fill=hair/> }.into_any(),
        Hair::Ponytail => view! {
            <g fill=hair><path d="M16 30 Q16 14 32 14 Q48 14 48 30 Q40 22 32 22 Q24 22 16 30Z"/><circle cx="51" cy="26" r="5"/></g>
        }.into_any(),
    };
    let accessory = match face.accessory {
        Accessory::None => view! { <g></g> }.into_any(),
        Accessory::Glasses => view! {
            <g fill="none" stroke="#37474f" stroke-width="1.5"><circle cx="26" cy="33" r="4"/><circle cx="38" cy="33" r="4"/><path d="M30 33 L34 33"/></g>
        }.into_any(),
        Accessory::Hat => view! { <path d="M14 24 L50 24 L46 14 Q32 6 18 14Z" fill="#5d4037"/> }.into_any(),
    };
    view! {
        <svg viewBox="0 0 64 64" aria-hidden="true" focusable="false">
            <circle cx="32" cy="32" r="32" fill=face.background/>
            <circle cx="32" cy="34" r="15" fill=face.skin/>
            {hair_view}
            <circle cx="26" cy="33" r="1.8" fill=face.eyes.clone()/>
            <circle cx="38" cy="33" r="1.8" fill=face.eyes/>
            {face.blush.then(|| view! { <g fill="#f48fb1" fill-opacity="0.5"><circle cx="22" cy="39" r="2.5"/><circle cx="42" cy="39" r="2.5"/></g> })}
            <path d="M27 41 Q32 45 37 41" fill="none" stroke=face.mouth stroke-width="1.8" stroke-linecap="round"/>
            {accessory}
        </svg>
    }
}

/// The readable name of preset `index`, e.g. "Picture 4, green".
pub fn preset_name(index: usize) -> String {
    tf(
        "Picture {number}, {colour}",
        &[
            ("number", &(index + 1).to_string()),
            ("colour", &value_label("avatar", PRESETS[index].colour)),
        ],
    )
}

/// A member's picture, named for screen readers; never the stored text, never a broken image,
/// and never a picture from a host the operator does not allow (`config.json`
/// `picture_hosts`): initials then, with the host named.
#[component]
pub fn MemberPicture(
    /// The member's `image_url` as stored.
    #[prop(into)]
    image_url: Signal<Option<String>>,
    /// The member's name (alternative text and initials).
    #[prop(into)]
    name: Signal<String>,
    /// A small picture, for lists.
    #[prop(optional)]
    small: bool,
) -> impl IntoView {
    let failed = RwSignal::new(None::<String>);
    move || {
        let stored = image_url.get();
        let label = tf("Picture of {name}", &[("name", &name.get())]);
        let class = if small { "avatar small" } else { "avatar" };
        let initials = move |label: String| {
            view! { <span class=format!("{class} initials") role="img" aria-label=label>{avatar::initials(&name.get())}</span> }.into_any()
        };
        match avatar::shown(stored.as_deref(), &crate::config::picture_hosts()) {
            Picture::Preset(index) => view! {
                <span class=class role="img" aria-label=label data-avatar=avatar::preset_value(index)><FaceDrawing face=PRESETS[index].face()/></span>
            }.into_any(),
            Picture::Drawn(face) => view! { <span class=class role="img" aria-label=label><FaceDrawing face/></span> }.into_any(),
            Picture::Url(url) if failed.get().as_deref() != Some(url.as_str()) => {
                let failed_url = url.clone();
                view! { <img class=class src=url alt=label on:error=move |_| failed.set(Some(failed_url.clone()))/> }.into_any()
            }
            Picture::NotAllowed { host } => {
                let why = not_loaded(&host);
                let label = format!("{label}. {why}");
                view! {
                    <span class="picture-not-loaded">
                        <span class=format!("{class} initials") role="img" aria-label=label title=why.clone() data-picture-host=host>{avatar::initials(&name.get())}</span>
                        {(!small).then(|| view! { <span class="hint">{why}</span> })}
                    </span>
                }.into_any()
            }
            _ => initials(label),
        }
    }
}

/// Why a web picture is not shown.
fn not_loaded(host: &str) -> String {
    tf(
        "Picture at {host} not loaded: this console loads pictures only from hosts its operator allows.",
        &[("host", host)],
    )
}

/// What the picker holds.
#[derive(Clone, Debug, PartialEq)]
enum Choice {
    None,
    /// The stored value, kept byte for byte (an older `avatar:{json}` face, say).
    Current,
    Preset(usize),
    Url,
}

/// The picker's state: the value to store follows the choice.
#[derive(Clone, Copy)]
pub struct PictureChoice {
    original: StoredValue<Option<String>>,
    choice: RwSignal<Choice>,
    url: RwSignal<String>,
}

impl PictureChoice {
    /// A picker starting at `stored`.
    pub fn new(stored: Option<String>) -> PictureChoice {
        let (choice, url) = match (avatar::parse(stored.as_deref()), stored.as_deref()) {
            (_, None) | (Picture::Initials, Some("")) => (Choice::None, String::new()),
            (Picture::Preset(i), Some(s)) if s == avatar::preset_value(i) => {
                (Choice::Preset(i), String::new())
            }
            (Picture::Url(u), _) => (Choice::Url, u),
            _ => (Choice::Current, String::new()),
        };
        PictureChoice {
            original: StoredValue::new(stored),
            choice: RwSignal::new(choice),
            url: RwSignal::new(url),
        }
    }

    /// The `image_url` to store (tracked): the original itself when "current" is chosen.
    pub fn value(&self) -> Option<String> {
        match self.choice.get() {
            Choice::None => self
                .original
                .with_value(|o| avatar::none_chosen(o.as_deref())),
            Choice::Current => self.original.get_value(),
            Choice::Preset(i) => Some(avatar::preset_value(i)),
            Choice::Url => self
                .original
                .with_value(|o| avatar::url_chosen(o.as_deref(), &self.url.get())),
        }
    }

    /// Whether a web address is chosen (its text then needs checking).
    pub fn is_url(&self) -> bool {
        self.choice.get_untracked() == Choice::Url
    }

    /// Starts again from `stored` (after a save).
    pub fn reset(&self, stored: Option<String>) {
        let fresh = PictureChoice::new(stored.clone());
        self.original.set_value(stored);
        self.choice.set(fresh.choice.get_untracked());
        self.url.set(fresh.url.get_untracked());
    }
}

/// Up and Down in the grid of faces move a row, to the face nearest in the row above or below
/// (Left and Right are the radio group's own: the previous and next choice). Positions are read
/// from the layout, so the grid may have any number of columns.
fn move_a_row(ev: leptos::ev::KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let down = match ev.key().as_str() {
        "ArrowDown" => true,
        "ArrowUp" => false,
        _ => return,
    };
    ev.prevent_default();
    let (Some(grid), Some(focused)) = (
        ev.current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok()),
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element()),
    ) else {
        return;
    };
    let tile_of = |input: &web_sys::Element| {
        input
            .parent_element()
            .and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok())
    };
    let Some(from) = tile_of(&focused) else {
        return;
    };
    let Ok(inputs) = grid.query_selector_all("input[type=radio]") else {
        return;
    };
    let (top, left) = (from.offset_top(), from.offset_left());
    let mut best: Option<(i32, i32, web_sys::HtmlInputElement)> = None;
    for i in 0..inputs.length() {
        let Some(input) = inputs
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            continue;
        };
        let Some(tile) = tile_of(&input) else {
            continue;
        };
        let rows = if down {
            tile.offset_top() - top
        } else {
            top - tile.offset_top()
        };
        if rows <= 0 {
            continue;
        }
        let across = (tile.offset_left() - left).abs();
        if best
            .as_ref()
            .is_none_or(|(r, a, _)| (rows, across) < (*r, *a))
        {
            best = Some((rows, across, input));
        }
    }
    if let Some((_, _, input)) = best {
        let _ = input.focus();
        input.click();
    }
}

/// The picker: the faces as a grid of radios (initials only, the current picture when it is a
/// kept face, the presets), one tab stop, arrows to move; and beside it a web address.
#[component]
pub fn PicturePicker(
    state: PictureChoice,
    id: &'static str,
    #[prop(into)] name: Signal<String>,
) -> impl IntoView {
    let tile = move |choice: Choice, key: String, label: Signal<String>, face: AnyView| {
        let value = choice.clone();
        view! {
            <label class="picture-tile" title=move || label.get()>
                <input type="radio" id=format!("{id}-{key}") name=id aria-label=move || label.get()
                    prop:checked=move || state.choice.get() == value
                    on:change=move |_| state.choice.set(choice.clone())/>
                {face}
            </label>
        }
    };
    let keeps_current = state.original.with_value(|o| {
        o.as_deref().is_some_and(|s| !s.is_empty())
            && !matches!(avatar::parse(o.as_deref()), Picture::Url(_))
            && PictureChoice::new(o.clone()).choice.get_untracked() == Choice::Current
    });
    let current = state.original.get_value();
    let address_id = format!("{id}-address");
    let host_note = move || {
        let url = state.url.get();
        match avatar::shown(Some(url.trim()), &crate::config::picture_hosts()) {
            Picture::NotAllowed { host } if state.choice.get() == Choice::Url => {
                Some(view! { <p class="hint">{not_loaded(&host)}</p> })
            }
            _ => None,
        }
    };
    view! {
        <fieldset class="picture-picker">
            <legend>{move || t("Picture")}</legend>
            <div class="picture-choice">
                <div class="picture-grid" on:keydown=move_a_row>
                    {tile(Choice::None, "none".into(), Signal::derive(move || t("Initials only")),
                        view! { <span class="avatar initials" aria-hidden="true">{move || avatar::initials(&name.get())}</span> }.into_any())}
                    {keeps_current.then(|| tile(Choice::Current, "current".into(), Signal::derive(move || t("The current picture")),
                        view! { <span aria-hidden="true"><MemberPicture image_url=Signal::derive(move || current.clone()) name/></span> }.into_any()))}
                    {(0..PRESETS.len()).map(|i| tile(Choice::Preset(i), i.to_string(), Signal::derive(move || preset_name(i)),
                        view! { <span class="avatar" aria-hidden="true"><FaceDrawing face=PRESETS[i].face()/></span> }.into_any())).collect_view()}
                </div>
                <div class="picture-address stack">
                    <label class="picture-option" for=format!("{id}-url")>
                        <input type="radio" id=format!("{id}-url") name=id prop:checked=move || state.choice.get() == Choice::Url
                            on:change=move |_| state.choice.set(Choice::Url)/>
                        <span>{move || t("A web address")}</span>
                    </label>
                    // Always there, so typing an address chooses it.
                    <label for=address_id.clone()>{move || t("Image URL")}</label>
                    <input id=address_id type="url" placeholder="https://…" prop:value=move || state.url.get()
                        on:input=move |ev| { state.url.set(event_target_value(&ev)); state.choice.set(Choice::Url); }/>
                    {host_note}
                </div>
            </div>
        </fieldset>
    }
}
