//! A search answers from one moment: while a curator hides and shows a textbook, searches by a
//! caller without a role never carry it hidden, in results, totals or facets.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::TestServer;
use larder_contract::collections::TEXTBOOKS;
use larder_server::store::{NaturalOrder, SearchQuery, Store, Viewer};

const TEXTBOOK: &str = "urn:textbook:foundations-of-nutrition-science";

fn every_textbook() -> SearchQuery {
    SearchQuery {
        collection: &TEXTBOOKS,
        viewer: Viewer::Public,
        parent: None,
        terms: vec![],
        prefix: false,
        filters: vec![],
        sort: vec![],
        natural_order: NaturalOrder::Insertion,
        limit: 100,
        offset: 0,
        facets: vec!["visibility".into()],
        facet_limit: 10,
    }
}

/// Hides and shows the textbook until `stop`; answers how many times it changed.
fn hide_and_show(store: &Store, stop: &AtomicBool) -> usize {
    let row = store
        .records()
        .get(&TEXTBOOKS, TEXTBOOK, Viewer::Curator)
        .unwrap()
        .expect("the demo textbook");
    let mut doc = row.doc.clone();
    let mut changes = 0;
    while !stop.load(Ordering::Relaxed) {
        let visibility = if changes % 2 == 0 {
            "internal"
        } else {
            "public"
        };
        doc["visibility"] = visibility.into();
        store.records().replace(&TEXTBOOKS, &row.id, &doc).unwrap();
        changes += 1;
    }
    doc["visibility"] = "public".into();
    store.records().replace(&TEXTBOOKS, &row.id, &doc).unwrap();
    changes
}

/// Searches until `stop`; answers (searches, answers that carried a hidden textbook).
fn search_until(store: &Store, stop: &AtomicBool) -> (usize, Vec<String>) {
    let (mut searches, mut leaks) = (0, Vec::new());
    let query = every_textbook();
    while !stop.load(Ordering::Relaxed) {
        let hits = store.search(&query).unwrap();
        searches += 1;
        for (doc, _) in &hits.results {
            if doc["visibility"] != "public" {
                leaks.push(format!("result {}", doc["urn"]));
            }
        }
        if hits.total != hits.results.len() as u64 {
            leaks.push(format!(
                "total {} for {} results",
                hits.total,
                hits.results.len()
            ));
        }
        for value in &hits.facets[0].1 {
            if value.value != "public" {
                leaks.push(format!("facet {:?}", value));
            }
        }
    }
    (searches, leaks)
}

fn race(store: &Store) {
    let stop = Arc::new(AtomicBool::new(false));
    let searchers: Vec<_> = (0..2)
        .map(|_| {
            let (store, stop) = (store.clone(), stop.clone());
            std::thread::spawn(move || search_until(&store, &stop))
        })
        .collect();
    let writer = {
        let (store, stop) = (store.clone(), stop.clone());
        std::thread::spawn(move || hide_and_show(&store, &stop))
    };
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, Ordering::Relaxed);
    let changes = writer.join().unwrap();
    let (mut searches, mut leaks) = (0, Vec::new());
    for searcher in searchers {
        let (count, found) = searcher.join().unwrap();
        searches += count;
        leaks.extend(found);
    }
    assert!(
        changes > 20 && searches > 100,
        "{changes} changes, {searches} searches"
    );
    assert!(
        leaks.is_empty(),
        "{} of {searches} searches carried the hidden textbook: {:?}",
        leaks.len(),
        &leaks[..leaks.len().min(5)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_record_is_never_found_on_a_database_file() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::on_file(&dir.path().join("larder.db")).await;
    let store = server.state.store.clone();
    tokio::task::spawn_blocking(move || race(&store))
        .await
        .unwrap();
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_record_is_never_found_in_memory() {
    let server = TestServer::demo().await;
    let store = server.state.store.clone();
    tokio::task::spawn_blocking(move || race(&store))
        .await
        .unwrap();
    server.stop().await;
}
