//! Paging: a result lists a window of each array; the manifest still commits to all of it.

use serde::Serialize;
use serde_json::{Value, json};

/// Default items per page.
pub const DEFAULT_LIMIT: u64 = 100;
/// Most items per page.
pub const MAX_LIMIT: u64 = 500;

/// One window into an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub offset: u64,
    /// 1 to [`MAX_LIMIT`].
    pub limit: u64,
}

impl Default for Window {
    fn default() -> Window {
        Window {
            offset: 0,
            limit: DEFAULT_LIMIT,
        }
    }
}

/// Which items a result lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageRequest {
    /// Every item of every array.
    All,
    /// A window per array.
    Windows {
        nodes: Window,
        occurrences: Window,
        edges: Window,
    },
}

impl Default for PageRequest {
    fn default() -> PageRequest {
        PageRequest::Windows {
            nodes: Window::default(),
            occurrences: Window::default(),
            edges: Window::default(),
        }
    }
}

impl PageRequest {
    /// The same window for all three arrays.
    pub fn uniform(offset: u64, limit: u64) -> PageRequest {
        let window = Window { offset, limit };
        PageRequest::Windows {
            nodes: window,
            occurrences: window,
            edges: window,
        }
    }

    /// Checks that every limit is within 1..=[`MAX_LIMIT`]; names the first bad field.
    pub(crate) fn invalid_field(&self) -> Option<&'static str> {
        let PageRequest::Windows {
            nodes,
            occurrences,
            edges,
        } = self
        else {
            return None;
        };
        [
            ("node_limit", nodes),
            ("occurrence_limit", occurrences),
            ("edge_limit", edges),
        ]
        .into_iter()
        .find(|(_, w)| w.limit == 0 || w.limit > MAX_LIMIT)
        .map(|(name, _)| name)
    }

    /// The request as recorded in Evidence parameters.
    pub(crate) fn to_parameters(self) -> Value {
        match self {
            PageRequest::All => json!({"all": true}),
            PageRequest::Windows {
                nodes,
                occurrences,
                edges,
            } => json!({
                "node_offset": nodes.offset, "node_limit": nodes.limit,
                "occurrence_offset": occurrences.offset, "occurrence_limit": occurrences.limit,
                "edge_offset": edges.offset, "edge_limit": edges.limit,
            }),
        }
    }
}

/// A page of `items`: `{items, offset, limit, total, next_offset}`. Only the listed items
/// are converted to JSON.
pub(crate) fn page_of<T: Serialize>(
    items: &[T],
    window: Option<Window>,
) -> Result<Value, serde_json::Error> {
    let total = items.len() as u64;
    let window = window.unwrap_or(Window {
        offset: 0,
        limit: total,
    });
    let start = window.offset.min(total) as usize;
    let end = window.offset.saturating_add(window.limit).min(total) as usize;
    let listed = items[start..end]
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<Vec<Value>, _>>()?;
    let next = window
        .offset
        .checked_add(window.limit)
        .filter(|&n| n < total);
    Ok(json!({
        "items": listed,
        "offset": window.offset,
        "limit": window.limit,
        "total": total,
        "next_offset": next,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(n: u64) -> Vec<u64> {
        (0..n).collect()
    }

    #[test]
    fn windows_follow_the_reference_arithmetic() {
        let page = page_of(
            &numbers(250),
            Some(Window {
                offset: 200,
                limit: 100,
            }),
        )
        .unwrap();
        assert_eq!(page["items"].as_array().unwrap().len(), 50);
        assert_eq!(page["next_offset"], Value::Null);
        let page = page_of(
            &numbers(250),
            Some(Window {
                offset: 100,
                limit: 100,
            }),
        )
        .unwrap();
        assert_eq!(page["next_offset"], 200);
        let page = page_of(
            &numbers(3),
            Some(Window {
                offset: 10,
                limit: 100,
            }),
        )
        .unwrap();
        assert!(page["items"].as_array().unwrap().is_empty());
        assert_eq!(page["total"], 3);
    }

    #[test]
    fn all_lists_everything() {
        let page = page_of(&numbers(7), None).unwrap();
        assert_eq!(page["items"].as_array().unwrap().len(), 7);
        assert_eq!(page["limit"], 7);
        assert_eq!(page["next_offset"], Value::Null);
    }
}
