//! Network access for curl, wget and http: the session's policy (`:allow_net`,
//! `:block_private_ips`), URL parsing, and the HTTP client that enforces both.

pub mod client;
pub mod policy;
pub mod url;

pub use policy::Policy;
pub use url::Url;
