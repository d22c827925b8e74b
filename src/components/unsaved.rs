//! A warning before leaving a form with unsaved changes: on reload or close (beforeunload) and
//! on in-app links (a capturing click listener that runs before the router's).

use crate::i18n::t;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// Counts the forms on screen that have unsaved changes.
#[derive(Clone, Copy)]
pub struct UnsavedChanges(RwSignal<u32>);

impl UnsavedChanges {
    /// Installs the listeners once, at the root.
    pub fn provide() -> UnsavedChanges {
        let dirty = UnsavedChanges(RwSignal::new(0));
        provide_context(dirty);
        let Some(window) = web_sys::window() else {
            return dirty;
        };
        let on_unload = Closure::<dyn Fn(web_sys::BeforeUnloadEvent)>::new(
            move |ev: web_sys::BeforeUnloadEvent| {
                if dirty.0.get_untracked() > 0 {
                    ev.prevent_default();
                    ev.set_return_value("unsaved");
                }
            },
        );
        let on_click =
            Closure::<dyn Fn(web_sys::MouseEvent)>::new(move |ev: web_sys::MouseEvent| {
                if dirty.0.get_untracked() == 0 {
                    return;
                }
                let on_link = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .and_then(|e| e.closest("a[href]").ok().flatten())
                    .is_some();
                // Only leaving by a link asks; clicks inside the form (fields, Save) must not.
                if !on_link {
                    return;
                }
                let leave = web_sys::window()
                    .and_then(|w| {
                        w.confirm_with_message(&t(
                            "You have unsaved changes. Leave this page and lose them?",
                        ))
                        .ok()
                    })
                    .unwrap_or(true);
                if on_link && !leave {
                    ev.prevent_default();
                    ev.stop_immediate_propagation();
                } else if on_link {
                    dirty.0.set(0);
                }
            });
        let _ = window
            .add_event_listener_with_callback("beforeunload", on_unload.as_ref().unchecked_ref());
        if let Some(document) = window.document() {
            let _ = document.add_event_listener_with_callback_and_bool(
                "click",
                on_click.as_ref().unchecked_ref(),
                true,
            );
        }
        // The listeners live as long as the page.
        on_unload.forget();
        on_click.forget();
        dirty
    }

    /// Marks one form dirty while `is_dirty` is true (undone when the form goes away).
    pub fn track(is_dirty: Signal<bool>) {
        let Some(counter) = use_context::<UnsavedChanges>() else {
            return;
        };
        let counted = StoredValue::new(false);
        Effect::new(move || {
            let now = is_dirty.get();
            if now != counted.get_value() {
                counted.set_value(now);
                counter.0.update(|n| {
                    if now {
                        *n += 1
                    } else {
                        *n = n.saturating_sub(1)
                    }
                });
            }
        });
        on_cleanup(move || {
            if counted.get_value() {
                counter.0.update(|n| *n = n.saturating_sub(1));
            }
        });
    }
}
