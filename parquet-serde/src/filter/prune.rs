//! Pruning: whether a row group or a page may hold a row the predicate selects, from
//! statistics, Bloom filters, dictionaries and the page index.

use std::cmp::Ordering;

use crate::core::bloom::{hash, Sbbf};
use crate::core::column::{ColumnStatistics, Scalar};
use crate::core::file::PageInfo;
use crate::core::format::{BoundingBox, Type};
use crate::core::geo::bbox_intersects;
use crate::core::schema::ColumnDescriptor;
use crate::core::values::ColumnValues;

use super::bind::{Kind, Leaf, Test};
use super::eval::test_values;
use super::like;
use super::predicate::CmpOp;

/// What statistics tell about a set of values (a column chunk or a page).
#[derive(Debug, Clone, Default)]
pub(crate) struct Facts {
    pub min: Option<Scalar>,
    pub max: Option<Scalar>,
    pub exact: bool,
    pub null_count: Option<u64>,
    /// Known to hold only nulls (`Some(false)`: known to hold a value).
    pub all_null: Option<bool>,
    pub nan_count: Option<u64>,
    /// Bounding box of a GEOMETRY / GEOGRAPHY chunk's values (GeospatialStatistics).
    pub bbox: Option<BoundingBox>,
}

impl Facts {
    /// Facts of a column chunk holding `num_values` slots.
    pub fn of_chunk(stats: Option<&ColumnStatistics>, num_values: i64) -> Facts {
        let Some(s) = stats else {
            return Facts::default();
        };
        Facts {
            min: s.min.clone(),
            max: s.max.clone(),
            exact: s.min_exact && s.max_exact,
            null_count: s.null_count,
            all_null: s.null_count.map(|n| n >= num_values.max(0) as u64),
            nan_count: s.nan_count,
            bbox: None,
        }
    }

    /// Facts of a page from the page index.
    pub fn of_page(p: &PageInfo) -> Facts {
        Facts {
            min: p.min.clone(),
            max: p.max.clone(),
            // Page bounds may be shortened without saying so.
            exact: false,
            null_count: p.null_count,
            all_null: p.null_page,
            nan_count: None,
            bbox: None,
        }
    }
}

fn lt(a: &Scalar, b: &Scalar) -> bool {
    a.compare(b).is_none_or(|o| o == Ordering::Less)
}

fn le(a: &Scalar, b: &Scalar) -> bool {
    a.compare(b).is_none_or(|o| o != Ordering::Greater)
}

fn same(a: &Scalar, b: &Scalar) -> bool {
    a.compare(b) == Some(Ordering::Equal)
}

/// Whether a row set described by `f` may hold a value (or row) passing `leaf`.
pub(crate) fn may_match(leaf: &Leaf, f: &Facts) -> bool {
    // A VARIANT path's value is inside the bytes: the `value` column's facts say nothing.
    if leaf.negated || matches!(leaf.test, Test::VariantPath(_)) {
        return true;
    }
    match &leaf.test {
        Test::IsNull => return f.all_null == Some(true) || f.null_count.is_none_or(|n| n > 0),
        Test::IsNotNull => return f.all_null != Some(true),
        _ => {}
    }
    if f.all_null == Some(true) {
        return false;
    }
    if let Test::IntersectsBbox([xmin, ymin, xmax, ymax]) = leaf.test {
        return f
            .bbox
            .as_ref()
            .is_none_or(|b| bbox_intersects(b, xmin, ymin, xmax, ymax));
    }
    let nan = leaf.kind.floating() && f.nan_count != Some(0);
    let (Some(min), Some(max)) = (&f.min, &f.max) else {
        return true;
    };
    let single = f.exact && same(min, max) && !nan;
    let eq = |v: &Scalar| {
        if v.is_nan() {
            nan
        } else {
            le(min, v) && le(v, max)
        }
    };
    match &leaf.test {
        Test::Cmp(CmpOp::Eq, v) => eq(v),
        Test::Cmp(CmpOp::Ne, v) => !(single && same(min, v)),
        Test::Cmp(CmpOp::Lt, v) => lt(min, v),
        Test::Cmp(CmpOp::Le, v) => le(min, v),
        Test::Cmp(CmpOp::Gt, v) => lt(v, max) || nan && !v.is_nan(),
        Test::Cmp(CmpOp::Ge, v) => le(v, max) || nan,
        Test::Between(lo, hi) => le(lo, hi) && le(lo, max) && le(min, hi) || nan && hi.is_nan(),
        Test::In(vs) => vs.iter().any(eq),
        Test::NotIn(vs) => !(single && vs.iter().any(|v| same(min, v))),
        Test::Like(p) if like::is_exact(p) => eq(&Scalar::from(p.as_str())),
        Test::Like(p) => {
            // Every match starts with the prefix: at or above it, and the least value
            // is below it or starts with it.
            let pre = Scalar::from(like::prefix(p));
            let min_ok = match min {
                Scalar::Bytes(m) => m.starts_with(like::prefix(p).as_bytes()) || le(min, &pre),
                _ => true,
            };
            le(&pre, max) && min_ok
        }
        Test::IsNull
        | Test::IsNotNull
        | Test::IntersectsBbox(_)
        | Test::NotLike(_)
        | Test::VariantPath(_) => true,
    }
}

/// The hashes a value equal to `v` would have in a Bloom filter of column `d` (`Some(vec![])`:
/// no stored value can equal it; `None`: the filter cannot tell, e.g. NaN).
pub(crate) fn bloom_hashes(v: &Scalar, kind: Kind, d: &ColumnDescriptor) -> Option<Vec<u64>> {
    match (kind, d.physical_type, v) {
        (Kind::Int { unsigned }, Type::Int32, Scalar::Int(i)) => Some(
            if unsigned {
                u32::try_from(*i).ok().map(|x| x as i32)
            } else {
                i32::try_from(*i).ok()
            }
            .map(hash::hash_i32)
            .into_iter()
            .collect(),
        ),
        (Kind::Int { unsigned }, Type::Int64, Scalar::Int(i)) => Some(
            if unsigned {
                u64::try_from(*i).ok().map(|x| x as i64)
            } else {
                i64::try_from(*i).ok()
            }
            .map(hash::hash_i64)
            .into_iter()
            .collect(),
        ),
        (Kind::Float, Type::Float, Scalar::Float(x)) if !x.is_nan() => {
            let f = *x as f32;
            if f as f64 != *x {
                return Some(vec![]);
            }
            Some(if f == 0.0 {
                vec![hash::hash_f32(0.0), hash::hash_f32(-0.0)]
            } else {
                vec![hash::hash_f32(f)]
            })
        }
        (Kind::Float, Type::Double, Scalar::Float(x)) if !x.is_nan() => Some(if *x == 0.0 {
            vec![hash::hash_f64(0.0), hash::hash_f64(-0.0)]
        } else {
            vec![hash::hash_f64(*x)]
        }),
        (Kind::Bytes, Type::ByteArray, Scalar::Bytes(b)) => Some(vec![hash::hash_bytes(b)]),
        (Kind::Bytes, Type::FixedLenByteArray, Scalar::Bytes(b)) => {
            Some(if b.len() == d.type_length.max(0) as usize {
                vec![hash::hash_bytes(b)]
            } else {
                vec![]
            })
        }
        (Kind::DecimalBytes, Type::FixedLenByteArray, Scalar::Int(i)) => {
            let w = d.type_length.max(0) as usize;
            let be = i.to_be_bytes();
            let ext = if *i < 0 { 0xff } else { 0 };
            let bytes: Vec<u8> = if w >= 16 {
                std::iter::repeat_n(ext, w - 16).chain(be).collect()
            } else {
                // Fits when the dropped bytes are sign extension of what remains.
                let (head, tail) = be.split_at(16 - w);
                let sign_ok = tail.first().is_none_or(|&t| (t & 0x80 != 0) == (*i < 0));
                if head.iter().any(|&h| h != ext) || !sign_ok {
                    return Some(vec![]);
                }
                tail.to_vec()
            };
            Some(vec![hash::hash_bytes(&bytes)])
        }
        _ => None,
    }
}

/// Whether a chunk whose Bloom filter is `filter` may hold a value passing `leaf` (only
/// equality and IN tests use the filter).
pub(crate) fn bloom_may_match(leaf: &Leaf, d: &ColumnDescriptor, filter: &Sbbf) -> bool {
    if leaf.negated {
        return true;
    }
    let values: Vec<&Scalar> = match &leaf.test {
        Test::Cmp(CmpOp::Eq, v) => vec![v],
        Test::In(vs) => vs.iter().collect(),
        _ => return true,
    };
    values
        .into_iter()
        .any(|v| match bloom_hashes(v, leaf.kind, d) {
            None => true,
            Some(hashes) => hashes.into_iter().any(|h| filter.check_hash(h)),
        })
}

/// Whether a chunk whose values all come from `dictionary` may hold a value passing `leaf`.
pub(crate) fn dictionary_may_match(leaf: &Leaf, dictionary: &ColumnValues) -> bool {
    if leaf.negated || matches!(leaf.test, Test::IsNull | Test::IsNotNull) {
        return true;
    }
    let mut out = Vec::with_capacity(dictionary.len());
    test_values(&leaf.test, leaf.kind, dictionary, &mut out);
    out.into_iter().any(|b| b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(kind: Kind, test: Test) -> Leaf {
        Leaf {
            column: 0,
            kind,
            test,
            negated: false,
        }
    }

    fn facts(min: i128, max: i128, nulls: u64, all_null: bool) -> Facts {
        Facts {
            min: Some(Scalar::Int(min)),
            max: Some(Scalar::Int(max)),
            exact: true,
            null_count: Some(nulls),
            all_null: Some(all_null),
            nan_count: None,
            bbox: None,
        }
    }

    #[test]
    fn statistics_ranges() {
        let i = Kind::Int { unsigned: false };
        let f = facts(10, 20, 0, false);
        let m = |t: Test| may_match(&leaf(i, t), &f);
        use CmpOp::*;
        assert!(m(Test::Cmp(Eq, Scalar::Int(10))));
        assert!(!m(Test::Cmp(Eq, Scalar::Int(21))));
        assert!(!m(Test::Cmp(Lt, Scalar::Int(10))));
        assert!(m(Test::Cmp(Le, Scalar::Int(10))));
        assert!(!m(Test::Cmp(Gt, Scalar::Int(20))));
        assert!(m(Test::Cmp(Ge, Scalar::Int(20))));
        assert!(m(Test::Cmp(Ne, Scalar::Int(15))));
        assert!(!m(Test::Between(Scalar::Int(21), Scalar::Int(30))));
        assert!(!m(Test::Between(Scalar::Int(15), Scalar::Int(12))));
        assert!(m(Test::Between(Scalar::Int(0), Scalar::Int(10))));
        assert!(m(Test::In(vec![Scalar::Int(0), Scalar::Int(11)])));
        assert!(!m(Test::In(vec![Scalar::Int(0), Scalar::Int(21)])));
        assert!(!m(Test::IsNull));
        assert!(m(Test::IsNotNull));
        let one = facts(7, 7, 0, false);
        assert!(!may_match(&leaf(i, Test::Cmp(Ne, Scalar::Int(7))), &one));
        assert!(!may_match(
            &leaf(i, Test::NotIn(vec![Scalar::Int(7)])),
            &one
        ));
        let nulls = facts(0, 0, 5, true);
        assert!(!may_match(&leaf(i, Test::Cmp(Ne, Scalar::Int(3))), &nulls));
        assert!(may_match(&leaf(i, Test::IsNull), &nulls));
        assert!(!may_match(&leaf(i, Test::IsNotNull), &nulls));
        // Unknown statistics prune nothing.
        assert!(may_match(
            &leaf(i, Test::Cmp(Eq, Scalar::Int(3))),
            &Facts::default()
        ));
        assert!(may_match(&leaf(i, Test::IsNull), &Facts::default()));
    }

    #[test]
    fn nans_keep_greater_than_tests_alive() {
        let mut f = Facts {
            min: Some(Scalar::Float(1.0)),
            max: Some(Scalar::Float(2.0)),
            exact: true,
            null_count: Some(0),
            all_null: Some(false),
            nan_count: None,
            bbox: None,
        };
        let gt = leaf(Kind::Float, Test::Cmp(CmpOp::Gt, Scalar::Float(5.0)));
        assert!(may_match(&gt, &f), "NaN > 5 may be there");
        let eq_nan = leaf(Kind::Float, Test::Cmp(CmpOp::Eq, Scalar::Float(f64::NAN)));
        assert!(may_match(&eq_nan, &f));
        f.nan_count = Some(0);
        assert!(!may_match(&gt, &f));
        assert!(!may_match(&eq_nan, &f));
        assert!(!may_match(
            &leaf(Kind::Float, Test::Cmp(CmpOp::Lt, Scalar::Float(1.0))),
            &f
        ));
    }

    #[test]
    fn bloom_hashes_follow_plain_encoding() {
        let s: crate::core::schema::Schema = "message m { required int32 a; required int32 u (INTEGER(32,false));
            required float f; required fixed_len_byte_array(3) d (DECIMAL(5,0)); required binary b; }"
            .parse()
            .unwrap();
        let c = s.columns();
        let k = |i: usize| Kind::of(&c[i]);
        assert_eq!(
            bloom_hashes(&Scalar::Int(5), k(0), &c[0]),
            Some(vec![hash::hash_i32(5)])
        );
        assert_eq!(
            bloom_hashes(&Scalar::Int(1 << 40), k(0), &c[0]),
            Some(vec![])
        );
        assert_eq!(bloom_hashes(&Scalar::Int(-1), k(1), &c[1]), Some(vec![]));
        assert_eq!(
            bloom_hashes(&Scalar::Int(u32::MAX as i128), k(1), &c[1]),
            Some(vec![hash::hash_i32(-1)])
        );
        assert_eq!(bloom_hashes(&Scalar::Float(0.1), k(2), &c[2]), Some(vec![]));
        assert_eq!(
            bloom_hashes(&Scalar::Float(0.0), k(2), &c[2])
                .unwrap()
                .len(),
            2
        );
        assert_eq!(bloom_hashes(&Scalar::Float(f64::NAN), k(2), &c[2]), None);
        assert_eq!(
            bloom_hashes(&Scalar::Int(-2), k(3), &c[3]),
            Some(vec![hash::hash_bytes(&[0xff, 0xff, 0xfe])])
        );
        assert_eq!(
            bloom_hashes(&Scalar::Int(1 << 30), k(3), &c[3]),
            Some(vec![])
        );
        assert_eq!(
            bloom_hashes(&Scalar::from("x"), k(4), &c[4]),
            Some(vec![hash::hash_bytes(b"x")])
        );
    }
}
