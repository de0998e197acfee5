//! electron-updater's configuration (`app-update.yml`), which electron-builder writes into the
//! application's `resources` directory from its `publish` settings: the provider the
//! application updates from and where (`provider: github`, `owner`, `repo`; `provider:
//! generic`, `url`; `s3`, `bucket`; …), the release channel, and the publisher names whose
//! signatures a Windows update must carry.
//!
//! The file is read as YAML events (`yaml-rust2`), never as a document: aliases are never
//! expanded, nesting needs no recursion, and reading stops at the bounds below.

use yaml_rust2::Event;
use yaml_rust2::parser::Parser;

use crate::facts::{UpdateConfig, UpdateValue};

/// Most top-level keys kept.
const MAX_FIELDS: usize = 64;
/// Most strings kept of one list.
const MAX_LIST: usize = 32;
/// Longest value kept, in bytes.
const MAX_VALUE_BYTES: usize = 1024;
/// Most YAML events read.
const MAX_EVENTS: usize = 20_000;

/// Parts of a key (lower case) that say its value is a credential.
const CREDENTIAL_PARTS: &[&str] = &[
    "token",
    "password",
    "secret",
    "apikey",
    "api_key",
    "accesskey",
    "access_key",
    "credential",
];

/// What a value the configuration holds is redacted to.
const REDACTED: &str = "[REDACTED]";

/// The configuration `text` holds; `None` when it is not YAML whose first document is a
/// mapping. Reading stops at [`MAX_EVENTS`], keeping what was read.
pub(crate) fn read(text: &str) -> Option<UpdateConfig> {
    let mut events = Events {
        parser: Parser::new_from_str(text),
        read: 0,
    };
    let mut config = UpdateConfig::default();
    match fields(&mut events, &mut config) {
        Some(()) => Some(config),
        None if events.read > MAX_EVENTS
            && config.fields.len() + config.credential_keys.len() > 0 =>
        {
            config.omitted += 1;
            Some(config)
        }
        None => None,
    }
}

/// The YAML events of one text: `None` at its end, at an error, and past [`MAX_EVENTS`].
struct Events<'t> {
    parser: Parser<std::str::Chars<'t>>,
    read: usize,
}

impl Events<'_> {
    fn next(&mut self) -> Option<Event> {
        self.read += 1;
        if self.read > MAX_EVENTS {
            return None;
        }
        match self.parser.next_token() {
            Ok((Event::StreamEnd, _)) | Err(_) => None,
            Ok((event, _)) => Some(event),
        }
    }

    /// Reads past the rest of a sequence or mapping whose start was just read.
    fn skip_nested(&mut self) -> Option<()> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.next()? {
                Event::SequenceStart(..) | Event::MappingStart(..) => depth += 1,
                Event::SequenceEnd | Event::MappingEnd => depth -= 1,
                _ => {}
            }
        }
        Some(())
    }

    /// Reads past one value: a scalar or alias, or a whole sequence or mapping.
    fn skip_value(&mut self) -> Option<()> {
        match self.next()? {
            Event::SequenceStart(..) | Event::MappingStart(..) => self.skip_nested(),
            Event::MappingEnd | Event::SequenceEnd => None,
            _ => Some(()),
        }
    }
}

/// The top-level fields of the first document, into `config`.
fn fields(events: &mut Events<'_>, config: &mut UpdateConfig) -> Option<()> {
    while !matches!(events.next()?, Event::DocumentStart) {}
    if !matches!(events.next()?, Event::MappingStart(..)) {
        return None;
    }
    loop {
        let key = match events.next()? {
            Event::MappingEnd => return Some(()),
            Event::Scalar(key, ..) => key,
            // A key that is not a string (a sequence or a mapping): skip it and its value.
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                events.skip_nested()?;
                events.skip_value()?;
                config.omitted += 1;
                continue;
            }
            _ => {
                events.skip_value()?;
                config.omitted += 1;
                continue;
            }
        };
        let value = match events.next()? {
            Event::Scalar(value, ..) => Some(UpdateValue::Text(value)),
            Event::SequenceStart(..) => {
                let mut list = Vec::new();
                let mut whole = true;
                loop {
                    match events.next()? {
                        Event::SequenceEnd => break,
                        Event::Scalar(item, ..) if list.len() < MAX_LIST => list.push(item),
                        Event::SequenceStart(..) | Event::MappingStart(..) => {
                            events.skip_nested()?;
                            whole = false;
                        }
                        _ => whole = false,
                    }
                }
                (whole || !list.is_empty()).then_some(UpdateValue::List(list))
            }
            Event::MappingStart(..) => {
                events.skip_nested()?;
                None
            }
            _ => None,
        };
        let Some(value) = value.filter(|_| config.fields.len() < MAX_FIELDS) else {
            config.omitted += 1;
            continue;
        };
        let lower = key.to_ascii_lowercase();
        let value = if CREDENTIAL_PARTS.iter().any(|part| lower.contains(part)) {
            config.credential_keys.push(key.clone());
            UpdateValue::Text(REDACTED.to_owned())
        } else {
            match value {
                UpdateValue::Text(text) => UpdateValue::Text(kept(text)),
                UpdateValue::List(items) => {
                    UpdateValue::List(items.into_iter().map(kept).collect())
                }
            }
        };
        config.fields.push((key, value));
    }
}

/// A value as it is kept: a URL redacted as endpoints are, anything cut at
/// [`MAX_VALUE_BYTES`].
fn kept(value: String) -> String {
    crate::redact::value(&value, MAX_VALUE_BYTES)
}
