//! Names a function gives only strings: `let command; if (construct) command = "A"; else
//! command = "B"; ipcRenderer.sendSync(command, …)`, as hand-written and compiled code picks
//! one of a few channels before one call. Such a name stands for each of its strings, so that
//! the call is one operation on each channel rather than a dynamic one.
//!
//! A name is counted in the function scope that declares it. It stands for its strings when
//! every declaration of it there is a plain `let`/`var` (with no value, or a string), and every
//! assignment that reaches it (from that function or one nested in it) is `=` with a string. A
//! parameter, a `const`, a destructured, caught, imported or loop-bound name, an update (`c++`,
//! `c += "x"`) or any other value makes it dynamic. Read only in files that name
//! `ipcRenderer` or `ipcMain`.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use swc_atoms::Atom;
use swc_ecma_ast::{AssignOp, Expr, Ident, Pat};

use super::names::{pattern_names, string};
use super::prepass::{PROGRAM_SCOPE, Scoped, Scopes};

/// Most strings one name may stand for.
const MAX_CHOICES: usize = 8;
/// How many scopes out an assignment's declaration is looked for.
const MAX_SCOPE_HOPS: usize = 256;

/// What one function scope gives one name.
#[derive(Debug, Default)]
struct Given {
    /// Its strings, in source order, without repeats.
    values: Vec<String>,
    /// Given something other than a string, or bound in a way that may give anything.
    dynamic: bool,
}

impl Given {
    /// A string given, or (`None`) anything else.
    fn take(&mut self, value: Option<String>) {
        match value {
            Some(value) if self.values.contains(&value) => {}
            Some(_) if self.values.len() == MAX_CHOICES => self.dynamic = true,
            Some(value) => self.values.push(value),
            None => self.dynamic = true,
        }
    }
}

/// What the pre-pass saw of a name, in the scope it was written in.
#[derive(Debug)]
enum Event {
    /// A plain `let`/`var` declaration, with its string, or `None` for anything else; no
    /// value at all gives nothing.
    Declared(Option<Option<String>>),
    /// A binding that may hold anything: a parameter, a `const`, a destructured, caught,
    /// imported or loop-bound name, a function's or a class's.
    Bound,
    /// An assignment reaching the declaration in this scope or an outer one: its string, or
    /// `None`.
    Assigned(Option<String>),
}

/// The strings names are given, gathered by the pre-pass. Events are kept in order and
/// read once the file is walked, and only for names given a string somewhere: a minified
/// bundle binds a great many names, and almost none of them is a choice.
#[derive(Debug, Default)]
pub(super) struct Choices {
    events: Vec<(Atom, u32, Event)>,
    /// The scope around each function scope seen.
    parent_of: HashMap<u32, u32>,
}

impl Choices {
    pub(super) fn clear(&mut self) {
        self.events.clear();
    }

    /// `let name = init;`, `var name;`; `constant` for a `const`, which is a constant of
    /// [`super::constants`] rather than a choice.
    pub(super) fn declared(
        &mut self,
        name: &Atom,
        (init, constant): (Option<&Expr>, bool),
        scopes: &Scopes,
    ) {
        let event = match init {
            _ if constant => Event::Bound,
            Some(init) => Event::Declared(Some(string(init))),
            None => Event::Declared(None),
        };
        self.push(name, event, scopes);
    }

    /// Every name a binding pattern declares that may hold anything: a parameter, a
    /// destructured, caught or loop-bound name.
    pub(super) fn bound(&mut self, pat: &Pat, scopes: &Scopes) {
        if let Pat::Ident(ident) = pat {
            self.bound_name(&ident.id.sym, scopes);
            return;
        }
        let mut names = Vec::new();
        pattern_names(pat, &mut names);
        for name in names {
            self.bound_name(&name.sym, scopes);
        }
    }

    /// A name declared other than by a pattern (a function's, a class's, an import's).
    pub(super) fn bound_name(&mut self, name: &Atom, scopes: &Scopes) {
        self.push(name, Event::Bound, scopes);
    }

    /// The names bound other than by a plain declaration, with their scopes: an assignment
    /// there gives a name that already holds a value.
    pub(super) fn bound_names(&self) -> impl Iterator<Item = (&Atom, u32)> {
        self.events
            .iter()
            .filter(|(_, _, event)| matches!(event, Event::Bound))
            .map(|(name, scope, _)| (name, *scope))
    }

    /// `name op= value`; an update (`name++`) is an assignment of no value.
    pub(super) fn assigned(
        &mut self,
        name: &Atom,
        (op, value): (AssignOp, Option<&Expr>),
        scopes: &Scopes,
    ) {
        let value = value.filter(|_| op == AssignOp::Assign).and_then(string);
        self.note_scopes(scopes);
        self.push(name, Event::Assigned(value), scopes);
    }

    /// Names assigned by a pattern (`[a, b] = pair`, a loop's `for ([a] of …)`): each may
    /// hold anything.
    pub(super) fn assigned_names(&mut self, names: &[&Ident], scopes: &Scopes) {
        self.note_scopes(scopes);
        for name in names {
            self.push(&name.sym, Event::Assigned(None), scopes);
        }
    }

    fn push(&mut self, name: &Atom, event: Event, scopes: &Scopes) {
        self.events.push((name.clone(), scopes.current(), event));
    }

    /// Keeps the links from each open scope to the one around it, for an assignment to find
    /// the declaration it reaches.
    fn note_scopes(&mut self, scopes: &Scopes) {
        let stack = scopes.stack();
        if stack.len() < 2 || self.parent_of.contains_key(&scopes.current()) {
            return;
        }
        for pair in stack.windows(2) {
            self.parent_of.insert(pair[1], pair[0]);
        }
    }

    /// The names that stand for two strings or more in their scope, and those strings; every
    /// other declaration of a name given a string shadows outer ones.
    pub(super) fn finish(self) -> Scoped<Vec<String>> {
        let given_strings: HashSet<&Atom> = self
            .events
            .iter()
            .filter(|(_, _, event)| {
                matches!(
                    event,
                    Event::Declared(Some(Some(_))) | Event::Assigned(Some(_))
                )
            })
            .map(|(name, _, _)| name)
            .collect();
        let mut declared: HashMap<(&Atom, u32), Given> = HashMap::default();
        let mut assigned = Vec::new();
        for (name, scope, event) in &self.events {
            if !given_strings.contains(name) {
                continue;
            }
            match event {
                Event::Declared(value) => {
                    let given = declared.entry((name, *scope)).or_default();
                    if let Some(value) = value {
                        given.take(value.clone());
                    }
                }
                Event::Bound => declared.entry((name, *scope)).or_default().dynamic = true,
                Event::Assigned(value) => assigned.push((name, *scope, value)),
            }
        }
        // Names with an assignment whose declaration lies more than `MAX_SCOPE_HOPS` scopes
        // out: not followed, so every declaration of the name is dynamic.
        let mut lost: HashSet<&Atom> = HashSet::default();
        for (name, scope, value) in assigned {
            let mut at = scope;
            let mut hops = 0;
            let given = loop {
                if let Some(given) = declared.get_mut(&(name, at)) {
                    break Some(given);
                }
                hops += 1;
                match self.parent_of.get(&at) {
                    Some(&parent) if at != PROGRAM_SCOPE && hops <= MAX_SCOPE_HOPS => at = parent,
                    Some(_) if at != PROGRAM_SCOPE => {
                        lost.insert(name);
                        break None;
                    }
                    _ => break None,
                }
            };
            // A name no scope declares is a global: nothing to read.
            if let Some(given) = given {
                given.take(value.clone());
            }
        }
        let mut out = Scoped::default();
        for ((name, scope), given) in declared {
            if !given.dynamic && given.values.len() >= 2 && !lost.contains(name) {
                out.set(name, scope, given.values);
            } else {
                out.bind(name, scope, None);
            }
        }
        out
    }
}
