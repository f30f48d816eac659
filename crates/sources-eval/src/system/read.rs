//! Reading a pipe or a file without holding more than a bound: up to a limit, only its end, or as
//! a stream of chunks.

use futures::StreamExt;
use tokio::io::{AsyncRead, AsyncReadExt};

use crate::io::{ByteStream, IoError};

/// Reads everything, keeping only the last `keep` bytes; a read error ends it early.
pub(super) async fn read_tail(mut reader: impl AsyncRead + Unpin, keep: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut chunk = vec![0; 8192];
    while let Ok(read @ 1..) = reader.read(&mut chunk).await {
        out.extend_from_slice(&chunk[..read]);
        if out.len() > 2 * keep {
            out.drain(..out.len() - keep);
        }
    }
    out
}

/// Reads everything up to `limit` bytes; `None` when there is more.
pub(super) async fn read_capped(
    reader: impl AsyncRead + Unpin,
    limit: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    let mut out = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(cap).read_to_end(&mut out).await?;
    Ok((out.len() <= limit).then_some(out))
}

/// A reader as a stream of chunks.
pub(super) fn chunks(reader: impl AsyncRead + Unpin + Send + 'static) -> ByteStream {
    futures::stream::unfold(Some(reader), |reader| async move {
        let mut reader = reader?;
        let mut chunk = vec![0; 8192];
        match reader.read(&mut chunk).await {
            Ok(0) => None,
            Ok(read) => {
                chunk.truncate(read);
                Some((Ok(bytes::Bytes::from(chunk)), Some(reader)))
            }
            Err(error) => Some((
                Err(IoError::Transport(format!("reading stdout: {error}"))),
                None,
            )),
        }
    })
    .boxed()
}
