//! Artifacts through the in-process router, one behaviour a test: upload, download, limits,
//! embedding and deletion.

mod common;

use common::{assert_error, TestServer};
use serde_json::json;

const TEXTBOOK: &str = "urn:textbook:foundations-of-nutrition-science";
const GUIDE: &str = "urn:guide:eat-well-2024";

/// The bytes of the uploaded report.
fn report() -> Vec<u8> {
    (0..300_000u32).map(|n| (n * 7 % 251) as u8).collect()
}

/// A demo server, the curator's and an owner's tokens, and the answer to the curator's upload of
/// `report()` under a hostile file name.
async fn with_report() -> (TestServer, String, String, common::Answer) {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    let owner = server.login("olivia", "olivia-demo").await;
    let uploaded = server
        .upload(
            Some(&expert),
            GUIDE,
            "../../etc/Report 2024 é.pdf",
            report(),
        )
        .await;
    assert_eq!(uploaded.status, 201, "{}", uploaded.body);
    (server, expert, owner, uploaded)
}

fn id_of(answer: &common::Answer) -> String {
    answer.body["result"]["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn an_upload_records_its_parent_size_title_and_type() {
    let (server, _, _, uploaded) = with_report().await;
    let record = &uploaded.body["result"];
    let id = record["id"].as_str().unwrap();
    assert_eq!(record["parent_urn"], GUIDE);
    assert_eq!(record["file_size"], report().len());
    assert_eq!(
        record["title"], "Report 2024 é.pdf",
        "the title defaults to the file's name"
    );
    assert_eq!(
        record["file_type"], "pdf",
        "production's file type: the extension"
    );
    assert_eq!(record["description"], "uploaded by a test");
    assert!(
        record.get("type").is_none(),
        "a direct artifact read has no type (production)"
    );
    assert_eq!(
        record["file_url"],
        format!("/api/v1/artifacts/{id}/download")
    );
    server.stop().await;
}

#[tokio::test]
async fn an_upload_is_stored_under_its_uuid_whatever_its_name() {
    let (server, _, _, uploaded) = with_report().await;
    let id = id_of(&uploaded);
    let folder = server.state.store.files().to_path_buf();
    assert!(folder.join(&id).is_file());
    assert_eq!(
        std::fs::read_dir(&folder).unwrap().count(),
        3,
        "two demo files and this one"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_download_gives_the_same_bytes_with_a_safe_file_name() {
    let (server, _, owner, uploaded) = with_report().await;
    let bytes = report();
    let (status, headers, downloaded) = server.download(&owner, &id_of(&uploaded)).await;
    assert_eq!(status, 200);
    assert_eq!(downloaded, bytes);
    assert_eq!(headers["content-length"], bytes.len().to_string().as_str());
    assert_eq!(headers["content-type"], "application/pdf");
    let disposition = headers["content-disposition"].to_str().unwrap();
    assert!(
        disposition.starts_with("attachment; filename=\"Report 2024 _.pdf\""),
        "{disposition}"
    );
    assert!(disposition.contains("filename*=UTF-8''Report%202024%20%C3%A9.pdf"));
    server.stop().await;
}

#[tokio::test]
async fn a_download_is_never_compressed() {
    // Compression would drop Content-Length; downloads are never compressed.
    let (server, _, owner, uploaded) = with_report().await;
    let id = id_of(&uploaded);
    let headers = [
        ("authorization", format!("Bearer {owner}")),
        ("accept-encoding", "gzip, br".to_string()),
    ];
    let (status, headers, _) = server
        .oneshot(
            "GET",
            &format!("artifacts/{id}/download"),
            &headers,
            Vec::new(),
        )
        .await;
    assert_eq!(status, 200);
    assert!(headers.get("content-encoding").is_none());
    assert_eq!(
        headers["content-length"],
        report().len().to_string().as_str()
    );
    server.stop().await;
}

#[tokio::test]
async fn artifacts_are_listed_per_parent_and_embedded_in_it() {
    let (server, _, owner, uploaded) = with_report().await;
    let id = id_of(&uploaded);
    let listed = server
        .call(
            "GET",
            &format!("artifacts?parent_urn={GUIDE}"),
            Some(&owner),
            None,
        )
        .await;
    let ids: Vec<&str> = listed.body["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&id.as_str()));
    let guide = server
        .call("GET", "guides/eat-well-2024", Some(&owner), None)
        .await;
    assert_eq!(
        guide.body["result"]["artifacts"].as_array().unwrap().len(),
        2
    );
    server.stop().await;
}

#[tokio::test]
async fn artifacts_have_no_listing_without_a_parent() {
    // Artifacts are listed per parent only, as production has no artifact listing at all.
    let server = TestServer::demo().await;
    let owner = server.login("olivia", "olivia-demo").await;
    let unlisted = server.call("GET", "artifacts", Some(&owner), None).await;
    assert_error(&unlisted, 422, "request/unprocessable");
    server.stop().await;
}

#[tokio::test]
async fn an_artifact_update_takes_file_type_title_and_description_only() {
    let (server, expert, _, uploaded) = with_report().await;
    let id = id_of(&uploaded);
    let refused = server
        .call("PATCH", &format!("artifacts/{id}"), Some(&expert), Some(json!({"file_type": "application/pdf", "title": "Report", "parent_urn": "urn:guide:other"})))
        .await;
    assert_error(&refused, 422, "request/unprocessable");
    assert_eq!(
        refused.body["error"]["errors"][0]["loc"],
        json!(["body", "parent_urn"])
    );
    let without_type = server
        .call(
            "PATCH",
            &format!("artifacts/{id}"),
            Some(&expert),
            Some(json!({"title": "Report"})),
        )
        .await;
    assert_eq!(without_type.body["error"]["errors"][0]["type"], "missing");
    let patched = server
        .call(
            "PATCH",
            &format!("artifacts/{id}"),
            Some(&expert),
            Some(json!({"file_type": "application/pdf", "title": "Report"})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    assert_eq!(patched.body["result"]["title"], "Report");
    assert_eq!(patched.body["result"]["parent_urn"], GUIDE);
    server.stop().await;
}

#[tokio::test]
async fn a_deleted_artifact_takes_its_file_along() {
    let (server, expert, owner, uploaded) = with_report().await;
    let id = id_of(&uploaded);
    let deleted = server
        .call("DELETE", &format!("artifacts/{id}"), Some(&expert), None)
        .await;
    assert_eq!(deleted.status, 200);
    assert!(!server.state.store.files().join(&id).exists());
    let (status, _, _) = server.download(&owner, &id).await;
    assert_eq!(status, 404);
    server.stop().await;
}

/// A demo server that takes uploads of up to 1,000 bytes, and the curator's token.
async fn limited() -> (TestServer, String) {
    let server = TestServer::start(&["--demo", "--max-upload", "1000"]).await;
    let expert = server.login("curator", "curator-demo").await;
    (server, expert)
}

#[tokio::test]
async fn an_upload_may_reach_the_limit_and_not_pass_it() {
    let (server, expert) = limited().await;
    let exact = server
        .upload(Some(&expert), GUIDE, "a.txt", vec![b'a'; 1000])
        .await;
    assert_eq!(exact.status, 201, "{}", exact.body);
    let over = server
        .upload(Some(&expert), GUIDE, "b.txt", vec![b'b'; 1001])
        .await;
    assert_eq!(over.status, 413, "{}", over.body);
    assert_eq!(over.body["success"], false);
    let far_over = server
        .upload(Some(&expert), GUIDE, "c.txt", vec![b'c'; 3 << 20])
        .await;
    assert_eq!(far_over.status, 413);
    server.stop().await;
}

#[tokio::test]
async fn refused_uploads_leave_no_file_behind() {
    let (server, expert) = limited().await;
    let owner = server.login("olivia", "olivia-demo").await;
    let folder = server.state.store.files().to_path_buf();
    let files_before = std::fs::read_dir(&folder).unwrap().count();
    let over = server
        .upload(Some(&expert), GUIDE, "b.txt", vec![b'b'; 1001])
        .await;
    assert_eq!(over.status, 413, "{}", over.body);
    let empty = server
        .upload(Some(&expert), GUIDE, "empty.txt", Vec::new())
        .await;
    assert_error(&empty, 422, "request/unprocessable");
    let orphan = server
        .upload(Some(&expert), "urn:guide:missing", "d.txt", vec![1])
        .await;
    assert_error(&orphan, 404, "resource/not_found");
    let anonymous = server.upload(None, GUIDE, "e.txt", vec![1]).await;
    assert_error(&anonymous, 401, "auth/unauthorized");
    let not_curator = server.upload(Some(&owner), GUIDE, "f.txt", vec![1]).await;
    assert_error(&not_curator, 403, "auth/forbidden");
    let boundary = "larder-test-boundary-7f3a";
    let form = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"parent_urn\"\r\n\r\n{GUIDE}\r\n--{boundary}--\r\n");
    let headers = [
        ("authorization", format!("Bearer {expert}")),
        (
            "content-type",
            format!("multipart/form-data; boundary={boundary}"),
        ),
    ];
    let (no_file, _, _) = server
        .oneshot("POST", "artifacts/upload", &headers, form.into_bytes())
        .await;
    assert_eq!(no_file, 422);
    let not_multipart = server
        .call(
            "POST",
            "artifacts/upload",
            Some(&expert),
            Some(json!({"parent_urn": GUIDE})),
        )
        .await;
    assert_error(&not_multipart, 400, "request/invalid");
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), files_before);
    server.stop().await;
}

#[tokio::test]
async fn a_metadata_only_artifact_has_no_file_to_download() {
    let (server, expert) = limited().await;
    let metadata_only = server
        .call("POST", "artifacts", Some(&expert), Some(json!({"parent_urn": GUIDE, "title": "Link", "file_url": "https://example.org/x.pdf", "file_type": "application/pdf", "file_size": 5})))
        .await;
    assert_eq!(metadata_only.status, 201, "{}", metadata_only.body);
    assert_eq!(metadata_only.body["result"]["file_type"], "pdf");
    let (status, _, _) = server.download(&expert, &id_of(&metadata_only)).await;
    assert_eq!(
        status, 422,
        "only uploaded artifacts have a file (production)"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_download_by_a_path_is_not_found() {
    let (server, expert) = limited().await;
    let (status, _, _) = server.download(&expert, "../../etc/passwd").await;
    assert_eq!(status, 404);
    server.stop().await;
}

#[tokio::test]
async fn deleting_a_textbook_artifact_removes_its_passages() {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    let book = server
        .call("GET", &format!("textbooks/{TEXTBOOK}"), Some(&expert), None)
        .await;
    let artifact = book.body["result"]["artifacts"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let before = server
        .call(
            "GET",
            &format!("textbook-passages/by-textbook/{TEXTBOOK}?limit=1000"),
            Some(&expert),
            None,
        )
        .await;
    assert_eq!(before.body["result"].as_array().unwrap().len(), 28);
    let deleted = server
        .call(
            "DELETE",
            &format!("artifacts/{artifact}"),
            Some(&expert),
            None,
        )
        .await;
    assert_eq!(deleted.status, 200);
    let after = server
        .call(
            "GET",
            &format!("textbook-passages/by-textbook/{TEXTBOOK}"),
            Some(&expert),
            None,
        )
        .await;
    assert_eq!(after.body["result"], json!([]));
    assert!(!server.state.store.files().join(&artifact).exists());
    server.stop().await;
}

#[tokio::test]
async fn a_published_guide_cannot_be_deleted() {
    let server = TestServer::demo().await;
    let admin = server.login("admin", "admin-demo").await;
    assert_eq!(
        server
            .call("DELETE", "guides/eat-well-2024", Some(&admin), None)
            .await
            .status,
        409
    );
    server.stop().await;
}

#[tokio::test]
async fn an_admin_deletes_a_guide_with_its_guidelines_and_files() {
    let server = TestServer::demo().await;
    let expert = server.login("curator", "curator-demo").await;
    let admin = server.login("admin", "admin-demo").await;
    let open = "urn:guide:healthy-plates-children";
    let uploaded = server
        .upload(Some(&expert), open, "plates.txt", b"plates".to_vec())
        .await;
    assert_eq!(uploaded.status, 201, "{}", uploaded.body);
    let guide_artifact = id_of(&uploaded);
    let guide = server
        .call("GET", &format!("guides/{open}"), Some(&admin), None)
        .await;
    let rule = guide.body["result"]["guidelines"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        server
            .call("DELETE", &format!("guides/{open}"), Some(&expert), None)
            .await
            .status,
        403,
        "only an admin deletes a guide"
    );
    assert_eq!(
        server
            .call("DELETE", &format!("guides/{open}"), Some(&admin), None)
            .await
            .status,
        200
    );
    assert_eq!(
        server
            .call("GET", &format!("guidelines/{rule}"), Some(&admin), None)
            .await
            .status,
        404
    );
    assert!(!server.state.store.files().join(&guide_artifact).exists());
    server.stop().await;
}
