//! The memory an import's reading takes, counted by a global allocator: the peak of bytes held
//! above what was held before, for the worst files each dialog lets through (issue 36, finding
//! 11: 16 MiB of commas made 16.8 million strings, 402 MiB). One test, so nothing else
//! allocates beside it. `cargo test -p larder --test import_memory -- --nocapture` prints the
//! figures.
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let held = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(held, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let held = HELD.fetch_add(new_size - layout.size(), Ordering::Relaxed)
                + (new_size - layout.size());
            PEAK.fetch_max(held, Ordering::Relaxed);
        } else {
            HELD.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The peak of bytes `work` held above what was held when it started (its input excluded).
fn peak_of<T>(work: impl FnOnce() -> T) -> usize {
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = work();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(result);
    peak
}

const MIB: usize = 1 << 20;

fn mib(bytes: usize) -> String {
    match bytes {
        b if b < MIB => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{:.1} MiB", b as f64 / MIB as f64),
    }
}

/// `work`'s peak, printed and checked against `max`.
fn bounded<T>(what: &str, max: usize, work: impl FnOnce() -> T) {
    let peak = peak_of(work);
    println!("{what}: {} (bound {})", mib(peak), mib(max));
    assert!(peak <= max, "{what}: {} held, over {}", mib(peak), mib(max));
}

#[test]
fn reading_an_import_takes_bounded_memory() {
    use larder::kb::schema::{csv, guideline_import, replace, views};
    // Before the bounds (commit 130582c), with inputs of 8 MiB, 32 MiB and 1 MiB (the limits are
    // now 8 MB, 33 MB and 1 MB): csv::read of 16 MiB of commas held 768 MiB at its peak (402 MiB
    // kept), the guideline import of it 1,728 MiB, of 8 MiB of commas 864 MiB, of one-letter
    // rows 2,824 MiB, of [0,0,…] 414 MiB, of [{},{},…] 494 MiB; the passage replacement of
    // [0,0,…] 512 MiB; views, of [0,0,…] 16 MiB.
    let commas = ",".repeat(16 * MIB);
    let limits = csv::Limits {
        fields: 17,
        field_bytes: 64 << 10,
        records: 10_001,
    };
    bounded("csv reader, 16 MiB of commas", MIB / 64, || {
        csv::records(&commas, limits).count()
    });
    bounded("guideline import, 16 MiB of commas", MIB / 64, || {
        guideline_import::parse(&commas)
    });
    // The largest texts each import parses.
    let most = guideline_import::MAX_FILE_BYTES;
    let commas = ",".repeat(most);
    bounded("guideline import, 8 MB of commas", MIB / 64, || {
        guideline_import::parse(&commas)
    });
    let rows = format!("rule_text\n{}", "x\n".repeat(most / 2 - 5));
    bounded("guideline import, 8 MB of one-letter rows", 8 * MIB, || {
        guideline_import::parse(&rows)
    });
    let zeros = format!("[{}0]", "0,".repeat(most / 2 - 2));
    bounded("guideline import, 8 MB of [0,0,…]", 64 * MIB, || {
        guideline_import::parse(&zeros)
    });
    let objects = format!("[{}{{}}]", "{},".repeat(most / 3 - 2));
    bounded("guideline import, 8 MB of [{},{},…]", 64 * MIB, || {
        guideline_import::parse(&objects)
    });
    let passages = format!(
        "{{\"artifact_id\": \"a\", \"passages\": [{}0]}}",
        "0,".repeat(replace::MAX_FILE_BYTES / 2 - 30)
    );
    bounded("passage replacement, 33 MB of [0,0,…]", 64 * MIB, || {
        replace::parse(&passages, "")
    });
    let zeros = format!("[{}0]", "0,".repeat(views::MAX_FILE_BYTES / 2 - 2));
    bounded("views, 1 MB of [0,0,…]", 8 * MIB, || {
        views::import_views(&zeros)
    });
}
