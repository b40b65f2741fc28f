//! Loads a crate's module tree from its root file: follows `mod x;` to `x.rs` or `x/mod.rs`
//! (or its `#[path]`), keeps only what the `cfg`s leave (see [`crate::attrs::cfg_on`]).

use std::path::{Path, PathBuf};

use syn::{Attribute, Item};

use crate::attrs::{cfg_on, doc_hidden, expand_cfg_attr};

/// One module of the crate.
pub struct Module {
    /// The names from the crate root to this module (empty for the root).
    pub def_path: Vec<String>,
    /// The enclosing module (`None` for the root).
    pub parent: Option<usize>,
    /// Declared `pub mod`.
    pub public: bool,
    /// Declared with `#[doc(hidden)]`.
    pub hidden: bool,
    /// Its items, `cfg`-filtered; an `Item::Mod` is one of `children`.
    pub items: Vec<Item>,
    /// The child modules by name.
    pub children: Vec<(String, usize)>,
}

/// Every module of a crate; index 0 is the root.
pub struct Crate {
    /// The modules, root first.
    pub modules: Vec<Module>,
}

/// Loads the crate whose root file is `root` (`src/lib.rs`).
pub fn load(root: &Path) -> Result<Crate, String> {
    let mut krate = Crate {
        modules: Vec::new(),
    };
    let items = parse(root)?;
    krate.modules.push(Module {
        def_path: Vec::new(),
        parent: None,
        public: true,
        hidden: false,
        items: Vec::new(),
        children: Vec::new(),
    });
    let dir = root.parent().unwrap_or(Path::new(".")).to_path_buf();
    fill(&mut krate, 0, items, &dir, &dir)?;
    Ok(krate)
}

fn parse(file: &Path) -> Result<Vec<Item>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let parsed = syn::parse_file(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(parsed.items)
}

/// Adds `items` to module `id`. `children_dir` is where its `mod x;` files are, `path_dir`
/// what a `#[path]` is relative to.
fn fill(
    krate: &mut Crate,
    id: usize,
    items: Vec<Item>,
    children_dir: &Path,
    path_dir: &Path,
) -> Result<(), String> {
    for mut item in items {
        if !prepare(&mut item) {
            continue;
        }
        if let Item::Mod(m) = &mut item {
            let name = m.ident.to_string();
            let child = krate.modules.len();
            let mut def_path = krate.modules[id].def_path.clone();
            def_path.push(name.clone());
            krate.modules.push(Module {
                def_path,
                parent: Some(id),
                public: matches!(m.vis, syn::Visibility::Public(_)),
                hidden: doc_hidden(&m.attrs),
                items: Vec::new(),
                children: Vec::new(),
            });
            krate.modules[id].children.push((name.clone(), child));
            let explicit = path_attr(&m.attrs);
            match m.content.take() {
                Some((_, inner)) => {
                    let dir = children_dir.join(&name);
                    let pdir = match &explicit {
                        Some(p) => path_dir.join(p),
                        None => dir.clone(),
                    };
                    fill(krate, child, inner, &dir, &pdir)?;
                }
                None => {
                    let file = match explicit {
                        Some(p) => path_dir.join(p),
                        None => {
                            let flat = children_dir.join(format!("{name}.rs"));
                            if flat.exists() {
                                flat
                            } else {
                                children_dir.join(&name).join("mod.rs")
                            }
                        }
                    };
                    let inner = parse(&file)?;
                    let file_dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
                    let mod_rs = file.file_name().is_some_and(|f| f == "mod.rs")
                        || path_attr(&m.attrs).is_some();
                    let dir: PathBuf = if mod_rs {
                        file_dir.clone()
                    } else {
                        file_dir.join(&name)
                    };
                    fill(krate, child, inner, &dir, &file_dir)?;
                }
            }
        }
        krate.modules[id].items.push(item);
    }
    Ok(())
}

fn path_attr(attrs: &[Attribute]) -> Option<String> {
    attrs
        .iter()
        .find(|a| a.path().is_ident("path"))
        .and_then(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
}

/// Expands `cfg_attr`s and drops what `cfg` turns off, in `item` and its members. Whether
/// the item itself stays.
fn prepare(item: &mut Item) -> bool {
    let Some(attrs) = item_attrs(item) else {
        return true;
    };
    expand_cfg_attr(attrs);
    if !cfg_on(attrs) {
        return false;
    }
    match item {
        Item::Struct(s) => fields(&mut s.fields),
        Item::Union(u) => {
            let mut named = syn::Fields::Named(u.fields.clone());
            fields(&mut named);
            if let syn::Fields::Named(n) = named {
                u.fields = n;
            }
        }
        Item::Enum(e) => {
            e.variants = std::mem::take(&mut e.variants)
                .into_iter()
                .filter_map(|mut v| {
                    expand_cfg_attr(&mut v.attrs);
                    fields(&mut v.fields);
                    cfg_on(&v.attrs).then_some(v)
                })
                .collect();
        }
        Item::Impl(i) => i.items.retain_mut(|it| {
            let attrs = match it {
                syn::ImplItem::Fn(f) => &mut f.attrs,
                syn::ImplItem::Const(c) => &mut c.attrs,
                syn::ImplItem::Type(t) => &mut t.attrs,
                syn::ImplItem::Macro(m) => &mut m.attrs,
                _ => return true,
            };
            expand_cfg_attr(attrs);
            cfg_on(attrs)
        }),
        Item::Trait(t) => t.items.retain_mut(|it| {
            let attrs = match it {
                syn::TraitItem::Fn(f) => &mut f.attrs,
                syn::TraitItem::Const(c) => &mut c.attrs,
                syn::TraitItem::Type(t) => &mut t.attrs,
                syn::TraitItem::Macro(m) => &mut m.attrs,
                _ => return true,
            };
            expand_cfg_attr(attrs);
            cfg_on(attrs)
        }),
        _ => {}
    }
    true
}

fn fields(fields: &mut syn::Fields) {
    let list = match fields {
        syn::Fields::Named(n) => &mut n.named,
        syn::Fields::Unnamed(u) => &mut u.unnamed,
        syn::Fields::Unit => return,
    };
    *list = std::mem::take(list)
        .into_iter()
        .filter_map(|mut f| {
            expand_cfg_attr(&mut f.attrs);
            cfg_on(&f.attrs).then_some(f)
        })
        .collect();
}

/// The attributes of `item`, where it has any.
pub fn item_attrs(item: &mut Item) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::ExternCrate(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::ForeignMod(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::TraitAlias(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Union(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        _ => return None,
    })
}
