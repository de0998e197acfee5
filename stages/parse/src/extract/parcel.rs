//! Parcel 2's scope-hoisted bundles. Most modules are hoisted into the bundle's own scope and
//! leave no factory; those Parcel must run lazily (CommonJS read dynamically, modules other
//! bundles require) are registered by their public id:
//!
//! ```js
//! var parcelRequire = $parcel$global["parcelRequire5b12"];   // minified: a = t.parcelRequire5b12
//! var parcelRegister = parcelRequire.register;                 // minified: var l = a.register
//! parcelRegister("jdCZ7", function (module, exports) { … parcelRequire("c3V2P") … });
//! ```
//!
//! The global's name (`parcelRequire<hash>`) is shared by every bundle of one application, so
//! it is the bundles' runtime. The pre-pass keeps the local names bound to it and to its
//! `register` ([`ParcelNames`]); a call of one of them with a string key and a function is a
//! registration. Parcel's development builds, which are not scope-hoisted, write a prelude
//! table instead, read with browserify's (`bundle::browserify_table`).

use rustc_hash::FxHashMap as HashMap;

use swc_ecma_ast::{CallExpr, Callee, Expr, MemberProp, Pat};

use super::names::{dotted, string, unwrap};

/// Local names bound to Parcel's global require and to its `register`.
#[derive(Default)]
pub(super) struct ParcelNames {
    /// Whether the file's text names `parcelRequire` at all.
    pub enabled: bool,
    /// Local require name → the global's name.
    requires: HashMap<String, String>,
    /// Local register name → (the global's name, the local require name it was read from).
    registers: HashMap<String, (String, String)>,
}

impl ParcelNames {
    /// Keeps `name` when `init` reads the global require (`g["parcelRequire…"]`,
    /// `g.parcelRequire…`) or a kept require's `register`.
    pub(super) fn bind(&mut self, name: &str, init: &Expr) {
        let Expr::Member(member) = unwrap(init) else {
            return;
        };
        let prop = match &member.prop {
            MemberProp::Ident(prop) => Some(prop.sym.to_string()),
            MemberProp::Computed(computed) => string(&computed.expr),
            MemberProp::PrivateName(_) => None,
        };
        let Some(prop) = prop else { return };
        if prop.starts_with("parcelRequire") {
            self.requires.insert(name.to_owned(), prop);
        } else if prop == "register"
            && let Expr::Ident(object) = unwrap(&member.obj)
            && let Some(global) = self.requires.get(&*object.sym)
        {
            self.registers
                .insert(name.to_owned(), (global.clone(), object.sym.to_string()));
        }
    }
}

/// One registration, read.
pub(super) struct Register<'a> {
    /// The global require's name: the runtime of the application's bundles.
    pub global: String,
    /// The local require name the factory calls.
    pub require: String,
    pub key: String,
    pub factory: &'a Expr,
}

impl Register<'_> {
    /// The factory's parameters: `module`, `exports`.
    pub fn params(&self) -> Vec<&Pat> {
        match unwrap(self.factory) {
            Expr::Fn(f) => f.function.params.iter().map(|p| &p.pat).collect(),
            Expr::Arrow(a) => a.params.iter().collect(),
            _ => Vec::new(),
        }
    }
}

/// Reads `call` as a registration: a kept register name, `<require>.register`, or
/// `<global>.parcelRequire<hash>.register`, called with a string key and a function.
pub(super) fn register_call<'a>(call: &'a CallExpr, names: &ParcelNames) -> Option<Register<'a>> {
    if !names.enabled {
        return None;
    }
    let Callee::Expr(callee) = &call.callee else {
        return None;
    };
    let (global, require) = match unwrap(callee) {
        Expr::Ident(ident) => names.registers.get(&*ident.sym)?.clone(),
        Expr::Member(member) if member.prop.is_ident_with("register") => {
            match unwrap(&member.obj) {
                Expr::Ident(object) => {
                    let global = names.requires.get(&*object.sym)?;
                    (global.clone(), object.sym.to_string())
                }
                // `(0, globalThis.parcelRequire5b12.register)(…)`, as a minified bundle
                // loaded later registers into the first one's require.
                Expr::Member(global) => {
                    let MemberProp::Ident(prop) = &global.prop else {
                        return None;
                    };
                    if !prop.sym.starts_with("parcelRequire") {
                        return None;
                    }
                    (prop.sym.to_string(), dotted(&member.obj))
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    let [key, factory] = &call.args[..] else {
        return None;
    };
    if key.spread.is_some() || factory.spread.is_some() {
        return None;
    }
    let key = string(&key.expr)?;
    let factory = &*factory.expr;
    if !matches!(unwrap(factory), Expr::Fn(_) | Expr::Arrow(_)) {
        return None;
    }
    Some(Register {
        global,
        require,
        key,
        factory,
    })
}
