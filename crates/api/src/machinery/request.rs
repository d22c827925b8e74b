//! A request described as data: GET and DELETE cannot carry a body by construction.

use serde_json::Value;

use super::config::Api;

/// The HTTP method, with the body on the methods that may have one.
#[derive(Clone, Debug, PartialEq)]
pub enum Method {
    /// GET, no body.
    Get,
    /// HEAD, no body.
    Head,
    /// DELETE, no body.
    Delete,
    /// OPTIONS, no body.
    Options,
    /// POST with a JSON body.
    Post(Value),
    /// PUT with a JSON body.
    Put(Value),
    /// PATCH with a JSON body.
    Patch(Value),
}

impl Method {
    /// The method's name on the wire.
    pub fn as_str(&self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
            Method::Post(_) => "POST",
            Method::Put(_) => "PUT",
            Method::Patch(_) => "PATCH",
        }
    }

    /// Whether a repeat cannot do anything twice (and so may be retried).
    pub fn is_idempotent(&self) -> bool {
        !matches!(self, Method::Post(_) | Method::Patch(_))
    }

    /// The JSON body, if the method has one.
    pub fn body(&self) -> Option<&Value> {
        match self {
            Method::Post(body) | Method::Put(body) | Method::Patch(body) => Some(body),
            _ => None,
        }
    }

    /// Builds a method from its name and an optional body; a body on GET, HEAD, DELETE or
    /// OPTIONS is a caller error, as is a missing body on POST, PUT or PATCH.
    pub fn from_parts(name: &str, body: Option<Value>) -> Result<Method, super::error::ApiError> {
        let upper = name.to_ascii_uppercase();
        match (upper.as_str(), body) {
            ("GET", None) => Ok(Method::Get),
            ("HEAD", None) => Ok(Method::Head),
            ("DELETE", None) => Ok(Method::Delete),
            ("OPTIONS", None) => Ok(Method::Options),
            ("GET" | "HEAD" | "DELETE" | "OPTIONS", Some(_)) => Err(
                super::error::ApiError::Caller(format!("{upper} requests cannot carry a body.")),
            ),
            ("POST", Some(body)) => Ok(Method::Post(body)),
            ("PUT", Some(body)) => Ok(Method::Put(body)),
            ("PATCH", Some(body)) => Ok(Method::Patch(body)),
            (other, _) => Err(super::error::ApiError::Caller(format!(
                "{other} needs a JSON body or is not a method this client sends."
            ))),
        }
    }
}

/// One call to make: where, how, and with what.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Which API.
    pub api: Api,
    /// Method and body.
    pub method: Method,
    /// The endpoint below `/api/v1`, e.g. `articles/urn:article:x`.
    pub path: String,
    /// Query parameters.
    pub query: Vec<(String, String)>,
    /// Whether to send the bearer token (everything but the two sign-ins does).
    pub authenticated: bool,
    /// A timeout for this call instead of the client's default.
    pub timeout_ms: Option<u64>,
}

impl Request {
    /// A request with the bearer token.
    pub fn new(api: Api, method: Method, path: impl Into<String>) -> Request {
        Request {
            api,
            method,
            path: path.into(),
            query: Vec::new(),
            authenticated: true,
            timeout_ms: None,
        }
    }
    /// A GET on the data API.
    pub fn data_get(path: impl Into<String>) -> Request {
        Request::new(Api::Data, Method::Get, path)
    }
    /// Adds a query parameter.
    pub fn query(mut self, key: &str, value: impl ToString) -> Request {
        self.query.push((key.to_string(), value.to_string()));
        self
    }
    /// Sends no bearer token.
    pub fn without_token(mut self) -> Request {
        self.authenticated = false;
        self
    }
    /// Overrides the timeout.
    pub fn timeout_ms(mut self, timeout_ms: u64) -> Request {
        self.timeout_ms = Some(timeout_ms);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bodies_only_where_allowed() {
        assert!(matches!(
            Method::from_parts("get", Some(json!({}))),
            Err(crate::machinery::error::ApiError::Caller(_))
        ));
        assert!(matches!(
            Method::from_parts("DELETE", Some(json!(1))),
            Err(crate::machinery::error::ApiError::Caller(_))
        ));
        assert_eq!(Method::from_parts("GET", None), Ok(Method::Get));
        assert_eq!(
            Method::from_parts("patch", Some(json!({"a": 1}))),
            Ok(Method::Patch(json!({"a": 1})))
        );
        assert!(Method::from_parts("POST", None).is_err());
        assert!(Method::Get.body().is_none());
    }
}
