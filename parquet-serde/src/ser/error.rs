//! [`Error`] as serde's serializer error, so `Serialize` implementations can report their own
//! failures (`S::Error::custom(..)`), which become [`ErrorKind::Data`](crate::ErrorKind::Data)
//! errors.

use std::fmt::Display;

use crate::error::Error;

impl serde::ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error::data(msg.to_string())
    }
}
