//! Artifacts over real HTTP: upload, download, limits, embedding and deletion.

mod common;

use common::{assert_error, TestServer};
use serde_json::json;

const TEXTBOOK: &str = "urn:textbook:foundations-of-nutrition-science";

#[tokio::test]
async fn upload_then_download_gives_the_same_bytes() {
    let server = TestServer::demo_socket().await;
    let expert = server.login("curator", "curator-demo").await;
    let owner = server.login("olivia", "olivia-demo").await;
    let bytes: Vec<u8> = (0..300_000u32).map(|n| (n * 7 % 251) as u8).collect();
    let uploaded = server
        .upload(
            Some(&expert),
            "urn:guide:eat-well-2024",
            "../../etc/Report 2024 é.pdf",
            bytes.clone(),
        )
        .await;
    assert_eq!(uploaded.status, 201, "{}", uploaded.body);
    let record = &uploaded.body["result"];
    let id = record["id"].as_str().unwrap();
    assert_eq!(record["parent_urn"], "urn:guide:eat-well-2024");
    assert_eq!(record["file_size"], bytes.len());
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

    // The file lives under its UUID inside the folder, whatever the client called it.
    let folder = server.state.store.files().to_path_buf();
    assert!(folder.join(id).is_file());
    assert_eq!(
        std::fs::read_dir(&folder).unwrap().count(),
        3,
        "two demo files and this one"
    );

    let (status, headers, downloaded) = server.download(&owner, id).await;
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

    // Compression would drop Content-Length; downloads are never compressed.
    let response = server
        .http
        .get(format!("{}/artifacts/{id}/download", server.base))
        .bearer_auth(&owner)
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .unwrap();
    assert!(response.headers().get("content-encoding").is_none());
    assert_eq!(
        response.headers()["content-length"],
        bytes.len().to_string().as_str()
    );

    let listed = server
        .call(
            "GET",
            "artifacts?parent_urn=urn:guide:eat-well-2024",
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
    assert!(ids.contains(&id));
    let guide = server
        .call("GET", "guides/eat-well-2024", Some(&owner), None)
        .await;
    assert_eq!(
        guide.body["result"]["artifacts"].as_array().unwrap().len(),
        2
    );
    // Artifacts are listed per parent only, as production has no artifact listing at all.
    let unlisted = server.call("GET", "artifacts", Some(&owner), None).await;
    assert_error(&unlisted, 422, "request/unprocessable");

    // An update takes file_type (required), title and description, and nothing else.
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
    assert_eq!(
        patched.body["result"]["parent_urn"],
        "urn:guide:eat-well-2024"
    );

    let deleted = server
        .call("DELETE", &format!("artifacts/{id}"), Some(&expert), None)
        .await;
    assert_eq!(deleted.status, 200);
    assert!(!folder.join(id).exists());
    let (status, _, _) = server.download(&owner, id).await;
    assert_eq!(status, 404);
    server.stop().await;
}

#[tokio::test]
async fn upload_limits_and_bad_uploads() {
    let server = TestServer::start_socket(&["--demo", "--max-upload", "1000"]).await;
    let expert = server.login("curator", "curator-demo").await;
    let owner = server.login("olivia", "olivia-demo").await;
    let guide = "urn:guide:eat-well-2024";
    let folder = server.state.store.files().to_path_buf();
    let files_before = std::fs::read_dir(&folder).unwrap().count();

    let exact = server
        .upload(Some(&expert), guide, "a.txt", vec![b'a'; 1000])
        .await;
    assert_eq!(exact.status, 201, "{}", exact.body);
    let over = server
        .upload(Some(&expert), guide, "b.txt", vec![b'b'; 1001])
        .await;
    assert_eq!(over.status, 413, "{}", over.body);
    assert_eq!(over.body["success"], false);
    let far_over = server
        .upload(Some(&expert), guide, "c.txt", vec![b'c'; 3 << 20])
        .await;
    assert_eq!(far_over.status, 413);
    let empty = server
        .upload(Some(&expert), guide, "empty.txt", Vec::new())
        .await;
    assert_error(&empty, 422, "request/unprocessable");
    let orphan = server
        .upload(Some(&expert), "urn:guide:missing", "d.txt", vec![1])
        .await;
    assert_error(&orphan, 404, "resource/not_found");
    let anonymous = server.upload(None, guide, "e.txt", vec![1]).await;
    assert_error(&anonymous, 401, "auth/unauthorized");
    let not_curator = server.upload(Some(&owner), guide, "f.txt", vec![1]).await;
    assert_error(&not_curator, 403, "auth/forbidden");
    let no_file = server
        .http
        .post(format!("{}/artifacts/upload", server.base))
        .bearer_auth(&expert)
        .multipart(reqwest::multipart::Form::new().text("parent_urn", guide))
        .send()
        .await
        .unwrap();
    assert_eq!(no_file.status().as_u16(), 422);
    let not_multipart = server
        .call(
            "POST",
            "artifacts/upload",
            Some(&expert),
            Some(json!({"parent_urn": guide})),
        )
        .await;
    assert_error(&not_multipart, 400, "request/invalid");
    // Only the accepted upload left a file; refused ones left nothing behind.
    assert_eq!(
        std::fs::read_dir(&folder).unwrap().count(),
        files_before + 1
    );

    let metadata_only = server
        .call("POST", "artifacts", Some(&expert), Some(json!({"parent_urn": guide, "title": "Link", "file_url": "https://example.org/x.pdf", "file_type": "application/pdf", "file_size": 5})))
        .await;
    assert_eq!(metadata_only.status, 201, "{}", metadata_only.body);
    assert_eq!(metadata_only.body["result"]["file_type"], "pdf");
    let (status, _, _) = server
        .download(
            &expert,
            metadata_only.body["result"]["id"].as_str().unwrap(),
        )
        .await;
    assert_eq!(
        status, 422,
        "only uploaded artifacts have a file (production)"
    );
    let (status, _, _) = server.download(&expert, "../../etc/passwd").await;
    assert_eq!(status, 404);
    server.stop().await;
}

#[tokio::test]
async fn deleting_a_textbook_artifact_removes_its_passages() {
    let server = TestServer::demo_socket().await;
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

    // A published guide can't be deleted; another guide goes with its guidelines and files.
    let admin = server.login("admin", "admin-demo").await;
    assert_eq!(
        server
            .call("DELETE", "guides/eat-well-2024", Some(&admin), None)
            .await
            .status,
        409
    );
    let open = "urn:guide:healthy-plates-children";
    let uploaded = server
        .upload(Some(&expert), open, "plates.txt", b"plates".to_vec())
        .await;
    assert_eq!(uploaded.status, 201, "{}", uploaded.body);
    let guide_artifact = uploaded.body["result"]["id"].as_str().unwrap().to_string();
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
