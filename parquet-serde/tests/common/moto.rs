//! A moto S3 server for the object-store tests, started on 127.0.0.1 by the test itself
//! (`python -m moto.server`, from .ci/requirements.txt) with the bucket [`BUCKET`].

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The bucket every server starts with.
pub const BUCKET: &str = "logs";

/// A moto S3 server, killed when dropped.
pub struct Moto {
    pub child: Child,
    pub port: u16,
}

pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// Sends one HTTP request without a body; the status code and the response.
pub fn http(port: u16, method: &str, target: &str) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        s,
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )?;
    let mut out = String::new();
    s.read_to_string(&mut out)?;
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Ok((status, out))
}

impl Moto {
    /// Starts a server with the bucket `logs`, waiting until it answers.
    pub fn start() -> Moto {
        let port = free_port();
        let child = Command::new(super::python())
            .args(["-m", "moto.server", "-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start `python -m moto.server` (pip install 'moto[server]', see .ci/requirements.txt)");
        let mut moto = Moto { child, port };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok((200, _)) = http(port, "GET", "/") {
                break;
            }
            if let Ok(Some(status)) = moto.child.try_wait() {
                panic!("moto server exited with {status}: is moto[server] installed?");
            }
            assert!(
                Instant::now() < deadline,
                "moto server did not answer in 60 s"
            );
            thread::sleep(Duration::from_millis(100));
        }
        let (status, body) = http(port, "PUT", &format!("/{BUCKET}")).expect("create bucket");
        assert_eq!(status, 200, "create bucket: {body}");
        moto
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A builder of an S3 store of [`BUCKET`] on the server (or proxy) at `port`: plain HTTP,
/// moto's test credentials, a 30 s timeout and two retries within 10 s, so a server that
/// went away fails the test quickly.
#[cfg(feature = "object_store")]
pub fn s3_builder(port: u16) -> object_store::aws::AmazonS3Builder {
    use object_store::{BackoffConfig, ClientOptions, RetryConfig};
    object_store::aws::AmazonS3Builder::new()
        .with_endpoint(format!("http://127.0.0.1:{port}"))
        .with_bucket_name(BUCKET)
        .with_region("us-east-1")
        .with_access_key_id("testing")
        .with_secret_access_key("testing")
        .with_retry(RetryConfig {
            backoff: BackoffConfig::default(),
            max_retries: 2,
            retry_timeout: Duration::from_secs(10),
        })
        // Plain HTTP (a local server); the client options replace the builder's own.
        .with_client_options(
            ClientOptions::new()
                .with_allow_http(true)
                .with_timeout(Duration::from_secs(30)),
        )
}
