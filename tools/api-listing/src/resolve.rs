//! Name resolution: what each name of each module refers to, through its items, its `use`s
//! (single, renamed, `self`, glob; `pub` or not) and its child modules, to a fixed point.

use std::collections::BTreeMap;

use proc_macro2::TokenTree;
use syn::{Item, UseTree, Visibility};

use crate::attrs::{doc_hidden, doc_inline};
use crate::load::Crate;

/// What kind of item a definition is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A module (its index in [`Crate::modules`]).
    Mod(usize),
    /// A struct.
    Struct,
    /// An enum.
    Enum,
    /// A union.
    Union,
    /// A trait.
    Trait,
    /// A function.
    Fn,
    /// A constant.
    Const,
    /// A static.
    Static,
    /// A type alias.
    Type,
    /// A `#[macro_export]` `macro_rules!`.
    Macro,
}

/// A namespace: a type and a function may share a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ns {
    /// Modules, types, traits.
    Type,
    /// Functions, constants, statics.
    Value,
    /// Macros.
    Macro,
}

/// An item defined in the crate.
pub struct Def {
    /// What it is.
    pub kind: Kind,
    /// Its name.
    pub name: String,
    /// The module it is defined in.
    pub module: usize,
    /// Its index in that module's items (none for a module).
    pub item: Option<usize>,
    /// Declared `pub`.
    pub public: bool,
    /// Declared `#[doc(hidden)]`.
    pub hidden: bool,
}

/// What a name refers to.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A definition of this crate (index in [`Resolved::defs`]).
    Def(usize),
    /// A path into another crate (or the standard library), as imported.
    Ext(Vec<String>),
}

/// One name of a module.
#[derive(Clone, Debug)]
pub struct Binding {
    /// What it names.
    pub target: Target,
    /// Visible outside the crate (`pub`).
    pub public: bool,
    /// `#[doc(hidden)]` on the `use`.
    pub hidden: bool,
    /// Came from a glob: an explicit name takes precedence.
    pub glob: bool,
    /// For a `use`: the module and name it imports through.
    pub via: Option<(usize, String, Ns)>,
    /// `#[doc(inline)]` (`Some(true)`) or `#[doc(no_inline)]` (`Some(false)`) on the `use`.
    pub inline: Option<bool>,
}

/// The crate with its names resolved.
pub struct Resolved {
    /// The module tree.
    pub krate: Crate,
    /// Every definition.
    pub defs: Vec<Def>,
    /// The definition of each module (none for the root).
    pub mod_def: Vec<Option<usize>>,
    /// Per module: its names in the crate's namespaces.
    pub names: Vec<BTreeMap<(String, Ns), Binding>>,
    /// Per module: its names that refer to other crates (namespace unknown).
    pub ext: Vec<BTreeMap<String, Binding>>,
    /// `pub use`s naming nothing: (module, path as written).
    pub unresolved: Vec<(usize, Vec<String>)>,
    /// The macro that made each definition found inside a macro invocation.
    pub made_by: BTreeMap<usize, String>,
}

struct UseEntry {
    module: usize,
    prefix: Vec<String>,
    leading_colon: bool,
    leaf: Leaf,
    public: bool,
    hidden: bool,
    inline: Option<bool>,
    done: bool,
}

enum Leaf {
    Name { name: String, alias: String },
    SelfOf { alias: String },
    Glob,
}

enum Res {
    Mod(usize),
    Ext(Vec<String>),
    Dead,
    Pending,
}

/// Resolves every name of `krate`.
pub fn resolve(krate: Crate) -> Resolved {
    let n = krate.modules.len();
    let mut r = Resolved {
        defs: Vec::new(),
        mod_def: vec![None; n],
        names: vec![BTreeMap::new(); n],
        ext: vec![BTreeMap::new(); n],
        unresolved: Vec::new(),
        made_by: BTreeMap::new(),
        krate,
    };
    let mut uses = Vec::new();
    let templates = templates(&r.krate);
    for m in 0..n {
        for (name, child) in r.krate.modules[m].children.clone() {
            let c = &r.krate.modules[child];
            let d = r.defs.len();
            r.defs.push(Def {
                kind: Kind::Mod(child),
                name: name.clone(),
                module: m,
                item: None,
                public: c.public,
                hidden: c.hidden,
            });
            r.mod_def[child] = Some(d);
            r.bind(m, name, Ns::Type, Target::Def(d), c.public, false);
        }
        for (i, item) in r.krate.modules[m].items.clone().iter().enumerate() {
            let (kind, ident, vis, attrs, ns) = match item {
                Item::Struct(s) => (Kind::Struct, &s.ident, &s.vis, &s.attrs, Ns::Type),
                Item::Enum(s) => (Kind::Enum, &s.ident, &s.vis, &s.attrs, Ns::Type),
                Item::Union(s) => (Kind::Union, &s.ident, &s.vis, &s.attrs, Ns::Type),
                Item::Trait(s) => (Kind::Trait, &s.ident, &s.vis, &s.attrs, Ns::Type),
                Item::Type(s) => (Kind::Type, &s.ident, &s.vis, &s.attrs, Ns::Type),
                Item::Fn(s) => (Kind::Fn, &s.sig.ident, &s.vis, &s.attrs, Ns::Value),
                Item::Const(s) => (Kind::Const, &s.ident, &s.vis, &s.attrs, Ns::Value),
                Item::Static(s) => (Kind::Static, &s.ident, &s.vis, &s.attrs, Ns::Value),
                Item::Macro(mac) => {
                    let exported = mac.attrs.iter().any(|a| a.path().is_ident("macro_export"));
                    if let (true, Some(ident)) = (exported, &mac.ident) {
                        let d = r.defs.len();
                        r.defs.push(Def {
                            kind: Kind::Macro,
                            name: ident.to_string(),
                            module: 0,
                            item: Some(i),
                            public: true,
                            hidden: doc_hidden(&mac.attrs),
                        });
                        r.defs[d].module = m;
                        r.bind(0, ident.to_string(), Ns::Macro, Target::Def(d), true, false);
                    } else if !mac.mac.path.is_ident("macro_rules") {
                        r.macro_items(m, i, mac, &templates);
                    }
                    continue;
                }
                Item::ExternCrate(e) => {
                    let name = e.rename.as_ref().map(|(_, i)| i).unwrap_or(&e.ident);
                    r.ext[m].insert(
                        name.to_string(),
                        Binding {
                            target: Target::Ext(vec![e.ident.to_string()]),
                            public: is_pub(&e.vis),
                            hidden: doc_hidden(&e.attrs),
                            glob: false,
                            via: None,
                            inline: None,
                        },
                    );
                    continue;
                }
                Item::Use(u) => {
                    flatten_use(
                        &u.tree,
                        &mut Vec::new(),
                        u.leading_colon.is_some(),
                        &mut |prefix, leaf, leading| {
                            uses.push(UseEntry {
                                module: m,
                                prefix,
                                leading_colon: leading,
                                leaf,
                                public: is_pub(&u.vis),
                                hidden: doc_hidden(&u.attrs),
                                inline: doc_inline(&u.attrs),
                                done: false,
                            })
                        },
                    );
                    continue;
                }
                _ => continue,
            };
            let d = r.defs.len();
            r.defs.push(Def {
                kind,
                name: ident.to_string(),
                module: m,
                item: Some(i),
                public: is_pub(vis),
                hidden: doc_hidden(attrs),
            });
            r.bind(m, ident.to_string(), ns, Target::Def(d), is_pub(vis), false);
        }
    }
    // To a fixed point; a first segment nothing in the crate names is another crate only
    // once no pass can find it in the crate any more.
    loop {
        if r.pass(&mut uses, false) {
            continue;
        }
        if !r.pass(&mut uses, true) {
            break;
        }
    }
    r
}

/// The `macro_rules!` of the crate whose expansion defines `pub KIND $name`, where `$name` is
/// the matcher's first fragment (after attribute repetitions): macro name -> what it defines.
fn templates(krate: &Crate) -> BTreeMap<String, (Kind, Ns)> {
    let mut out = BTreeMap::new();
    for module in &krate.modules {
        for item in &module.items {
            let Item::Macro(mac) = item else { continue };
            let (true, Some(name)) = (mac.mac.path.is_ident("macro_rules"), &mac.ident) else {
                continue;
            };
            let trees: Vec<TokenTree> = mac.mac.tokens.clone().into_iter().collect();
            for rule in trees.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';')) {
                let (Some(TokenTree::Group(matcher)), Some(TokenTree::Group(body))) =
                    (rule.first(), rule.last())
                else {
                    continue;
                };
                let Some(var) = first_ident_fragment(matcher.stream()) else {
                    continue;
                };
                let body: Vec<TokenTree> = body.stream().into_iter().collect();
                for w in body.windows(4) {
                    if let (
                        TokenTree::Ident(vis),
                        TokenTree::Ident(kw),
                        TokenTree::Punct(dollar),
                        TokenTree::Ident(v),
                    ) = (&w[0], &w[1], &w[2], &w[3])
                    {
                        if vis != "pub" || dollar.as_char() != '$' || *v != var {
                            continue;
                        }
                        let kind = match kw.to_string().as_str() {
                            "struct" => (Kind::Struct, Ns::Type),
                            "enum" => (Kind::Enum, Ns::Type),
                            "trait" => (Kind::Trait, Ns::Type),
                            "fn" => (Kind::Fn, Ns::Value),
                            _ => continue,
                        };
                        out.insert(name.to_string(), kind);
                    }
                }
            }
        }
    }
    out
}

/// `name` when a matcher starts (after `$(...)*` repetitions) with `$name:ident`.
fn first_ident_fragment(matcher: proc_macro2::TokenStream) -> Option<String> {
    let trees: Vec<TokenTree> = matcher.into_iter().collect();
    let mut k = 0;
    loop {
        match (trees.get(k), trees.get(k + 1)) {
            (Some(TokenTree::Punct(d)), Some(TokenTree::Group(_))) if d.as_char() == '$' => {
                k += 2;
                while matches!(trees.get(k), Some(TokenTree::Punct(p)) if "*+?".contains(p.as_char()))
                {
                    k += 1;
                }
            }
            (Some(TokenTree::Punct(d)), Some(TokenTree::Ident(var))) if d.as_char() == '$' => {
                let colon =
                    matches!(trees.get(k + 2), Some(TokenTree::Punct(c)) if c.as_char() == ':');
                let ident = matches!(trees.get(k + 3), Some(TokenTree::Ident(i)) if i == "ident");
                return (colon && ident).then(|| var.to_string());
            }
            _ => return None,
        }
    }
}

fn is_pub(vis: &Visibility) -> bool {
    matches!(vis, Visibility::Public(_))
}

fn flatten_use(
    tree: &UseTree,
    prefix: &mut Vec<String>,
    leading: bool,
    out: &mut dyn FnMut(Vec<String>, Leaf, bool),
) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, leading, out);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let name = n.ident.to_string();
            leaf(prefix, name.clone(), name, leading, out);
        }
        UseTree::Rename(r) => {
            leaf(
                prefix,
                r.ident.to_string(),
                r.rename.to_string(),
                leading,
                out,
            );
        }
        UseTree::Glob(_) => out(prefix.clone(), Leaf::Glob, leading),
        UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix, leading, out);
            }
        }
    }
}

fn leaf(
    prefix: &[String],
    name: String,
    alias: String,
    leading: bool,
    out: &mut dyn FnMut(Vec<String>, Leaf, bool),
) {
    if alias == "_" {
        // `use Trait as _` brings a trait's methods into scope and names nothing.
        return;
    }
    if name == "self" {
        let alias = if alias == "self" {
            prefix.last().cloned().unwrap_or_default()
        } else {
            alias
        };
        out(prefix.to_vec(), Leaf::SelfOf { alias }, leading);
    } else {
        out(prefix.to_vec(), Leaf::Name { name, alias }, leading);
    }
}

impl Resolved {
    /// Adds a name; an explicit name replaces a glob's, nothing else replaces. Whether it
    /// was added.
    fn bind(
        &mut self,
        m: usize,
        name: String,
        ns: Ns,
        target: Target,
        public: bool,
        glob: bool,
    ) -> bool {
        self.bind_full(
            m,
            (name, ns),
            Binding {
                target,
                public,
                hidden: false,
                glob,
                via: None,
                inline: None,
            },
        )
    }

    /// Defines the items a macro invocation (`thrift_struct! { pub struct X { .. } }`) makes,
    /// as far as its top-level tokens show them: `pub struct|enum|trait|fn|type|const|static
    /// NAME`. Their members are not known.
    fn macro_items(
        &mut self,
        m: usize,
        i: usize,
        mac: &syn::ItemMacro,
        templates: &BTreeMap<String, (Kind, Ns)>,
    ) {
        let trees: Vec<TokenTree> = mac.mac.tokens.clone().into_iter().collect();
        let macro_name = mac
            .mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let before = self.defs.len();
        for w in trees.windows(3) {
            let (TokenTree::Ident(vis), TokenTree::Ident(kw), TokenTree::Ident(name)) =
                (&w[0], &w[1], &w[2])
            else {
                continue;
            };
            if vis != "pub" {
                continue;
            }
            let (kind, ns) = match kw.to_string().as_str() {
                "struct" => (Kind::Struct, Ns::Type),
                "enum" => (Kind::Enum, Ns::Type),
                "trait" => (Kind::Trait, Ns::Type),
                "type" => (Kind::Type, Ns::Type),
                "fn" => (Kind::Fn, Ns::Value),
                "const" => (Kind::Const, Ns::Value),
                "static" => (Kind::Static, Ns::Value),
                _ => continue,
            };
            self.macro_def(m, i, kind, ns, name.to_string(), &macro_name);
        }
        // A macro whose expansion is `pub enum $name` with `$name` the first identifier of
        // the invocation, after its attributes (`thrift_enum! { /// doc\n Name { .. } }`).
        if let (true, Some(&(kind, ns))) = (self.defs.len() == before, templates.get(&macro_name)) {
            let mut k = 0;
            while let (Some(TokenTree::Punct(p)), Some(TokenTree::Group(_))) =
                (trees.get(k), trees.get(k + 1))
            {
                if p.as_char() != '#' {
                    break;
                }
                k += 2;
            }
            if let Some(TokenTree::Ident(name)) = trees.get(k) {
                self.macro_def(m, i, kind, ns, name.to_string(), &macro_name);
            }
        }
    }

    fn macro_def(
        &mut self,
        m: usize,
        i: usize,
        kind: Kind,
        ns: Ns,
        name: String,
        macro_name: &str,
    ) {
        let d = self.defs.len();
        self.defs.push(Def {
            kind,
            name: name.clone(),
            module: m,
            item: Some(i),
            public: true,
            hidden: false,
        });
        self.made_by.insert(d, macro_name.to_string());
        self.bind(m, name, ns, Target::Def(d), true, false);
    }

    fn bind_full(&mut self, m: usize, key: (String, Ns), b: Binding) -> bool {
        match self.names[m].get(&key) {
            Some(old) if !old.glob || b.glob => false,
            _ => {
                self.names[m].insert(key, b);
                true
            }
        }
    }

    fn pass(&mut self, uses: &mut [UseEntry], allow_ext: bool) -> bool {
        let mut changed = false;
        for u in uses.iter_mut().filter(|u| !u.done) {
            let res = if u.leading_colon {
                Res::Ext(u.prefix.clone())
            } else {
                self.resolve_mod(u.module, &u.prefix, allow_ext)
            };
            match (res, &u.leaf) {
                (Res::Pending, _) => {}
                (Res::Dead, _) => u.done = true,
                // Another crate's glob: its names are not known here.
                (Res::Ext(_), Leaf::Glob) => u.done = true,
                (Res::Ext(mut p), Leaf::Name { name, alias }) => {
                    p.push(name.clone());
                    changed |=
                        self.bind_ext(u.module, alias.clone(), p, u.public, u.hidden, u.inline);
                    u.done = true;
                }
                (Res::Ext(p), Leaf::SelfOf { alias }) => {
                    changed |=
                        self.bind_ext(u.module, alias.clone(), p, u.public, u.hidden, u.inline);
                    u.done = true;
                }
                (Res::Mod(t), Leaf::SelfOf { alias }) => {
                    if let Some(d) = self.mod_def[t] {
                        let b = Binding {
                            target: Target::Def(d),
                            public: u.public,
                            hidden: u.hidden,
                            glob: false,
                            via: None,
                            inline: u.inline,
                        };
                        changed |= self.bind_full(u.module, (alias.clone(), Ns::Type), b);
                    }
                    u.done = true;
                }
                (Res::Mod(t), Leaf::Name { name, alias }) => {
                    let found: Vec<(Ns, Binding)> = self.names[t]
                        .iter()
                        .filter(|((n, _), _)| n == name)
                        .map(|((_, ns), b)| (*ns, b.clone()))
                        .collect();
                    let ext = self.ext[t].get(name).cloned();
                    if found.is_empty() && ext.is_none() {
                        if allow_ext {
                            u.done = true;
                            if u.public {
                                let mut p = u.prefix.clone();
                                p.push(name.clone());
                                self.unresolved.push((u.module, p));
                            }
                        }
                        continue;
                    }
                    for (ns, b) in found {
                        let via = Some((t, name.clone(), ns));
                        let nb = Binding {
                            target: b.target,
                            public: u.public,
                            hidden: u.hidden || b.hidden,
                            glob: false,
                            via,
                            inline: u.inline,
                        };
                        changed |= self.bind_full(u.module, (alias.clone(), ns), nb);
                    }
                    if let Some(b) = ext {
                        if let Target::Ext(p) = b.target {
                            changed |= self.bind_ext(
                                u.module,
                                alias.clone(),
                                p,
                                u.public,
                                u.hidden,
                                u.inline,
                            );
                        }
                    }
                    u.done = true;
                }
                (Res::Mod(t), Leaf::Glob) => {
                    if t == u.module {
                        continue;
                    }
                    let found: Vec<((String, Ns), Binding)> = self.names[t]
                        .iter()
                        .map(|(k, b)| (k.clone(), b.clone()))
                        .collect();
                    for (key, b) in found {
                        let via = Some((t, key.0.clone(), key.1));
                        let nb = Binding {
                            target: b.target,
                            public: u.public && b.public,
                            hidden: u.hidden || b.hidden,
                            glob: true,
                            via,
                            inline: u.inline,
                        };
                        let same = self.names[u.module]
                            .get(&key)
                            .map(|o| o.target == nb.target && o.public >= nb.public);
                        if same != Some(true) {
                            changed |= self.bind_full(u.module, key, nb);
                        }
                    }
                    let found: Vec<(String, Binding)> = self.ext[t]
                        .iter()
                        .map(|(k, b)| (k.clone(), b.clone()))
                        .collect();
                    for (name, b) in found {
                        if !self.ext[u.module].contains_key(&name) {
                            let nb = Binding {
                                public: u.public && b.public,
                                glob: true,
                                ..b
                            };
                            self.ext[u.module].insert(name, nb);
                            changed = true;
                        }
                    }
                }
            }
        }
        changed
    }

    fn bind_ext(
        &mut self,
        m: usize,
        name: String,
        path: Vec<String>,
        public: bool,
        hidden: bool,
        inline: Option<bool>,
    ) -> bool {
        if self.ext[m].get(&name).is_some_and(|b| !b.glob) {
            return false;
        }
        self.ext[m].insert(
            name,
            Binding {
                target: Target::Ext(path),
                public,
                hidden,
                glob: false,
                via: None,
                inline,
            },
        );
        true
    }

    /// The module (or other crate's path) `segs` names from module `m`.
    fn resolve_mod(&self, m: usize, segs: &[String], allow_ext: bool) -> Res {
        let mut cur = m;
        for (i, seg) in segs.iter().enumerate() {
            cur = match seg.as_str() {
                "crate" if i == 0 => 0,
                "self" => cur,
                "super" => match self.krate.modules[cur].parent {
                    Some(p) => p,
                    None => return Res::Dead,
                },
                name => match self.names[cur].get(&(name.to_string(), Ns::Type)) {
                    Some(Binding {
                        target: Target::Def(d),
                        ..
                    }) => match self.defs[*d].kind {
                        Kind::Mod(c) => c,
                        _ => return Res::Dead,
                    },
                    Some(Binding {
                        target: Target::Ext(p),
                        ..
                    }) => return Res::Ext(p.iter().chain(&segs[i + 1..]).cloned().collect()),
                    None => match self.ext[cur].get(name) {
                        Some(Binding {
                            target: Target::Ext(p),
                            ..
                        }) => return Res::Ext(p.iter().chain(&segs[i + 1..]).cloned().collect()),
                        _ if !allow_ext => return Res::Pending,
                        _ if i == 0 => return Res::Ext(segs.to_vec()),
                        _ => return Res::Dead,
                    },
                },
            };
        }
        Res::Mod(cur)
    }

    /// What the path `segs` (a type or trait as written) names from module `m`.
    pub fn resolve_path(&self, m: usize, segs: &[String]) -> Option<Target> {
        let (last, prefix) = segs.split_last()?;
        let scope = match self.resolve_mod(m, prefix, true) {
            Res::Mod(t) => t,
            Res::Ext(mut p) => {
                p.push(last.clone());
                return Some(Target::Ext(p));
            }
            _ => return None,
        };
        if let Some(b) = self.names[scope].get(&(last.clone(), Ns::Type)) {
            return Some(b.target.clone());
        }
        if let Some(b) = self.ext[scope].get(last) {
            return Some(b.target.clone());
        }
        None
    }
}
