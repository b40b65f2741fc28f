//! [`Predicate`]: a filter over the leaf columns of a file, built with [`col`].

use std::fmt;

use crate::column::Scalar;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// A condition on rows, over primitive (leaf) columns named by dotted path.
///
/// Semantics are SQL's three-valued logic: a comparison with a null value is *unknown*,
/// `and`/`or`/`not` follow Kleene's rules, and a row is selected only when the whole
/// predicate is *true*. So `not(col("a").eq(1))` selects the same rows as
/// `col("a").ne(1)`: neither selects rows where `a` is null.
///
/// Floating point values compare by value with -0.0 equal to +0.0 and NaN equal to NaN
/// and greater than every other value (as PostgreSQL orders them).
///
/// A leaf under a repeated field (`tags.list.element`) tests every value of the row: the
/// row matches when *any* value does (a comparison with an empty or null list is unknown),
/// `is_null` is true when the row has a null value or an empty or null list, and
/// `is_not_null` when it has a non-null value.
///
/// ```
/// use parquet_serde::filter::{col, not};
/// let p = col("level").eq("ERROR").and(col("ts").between(100, 200));
/// assert_eq!(p.to_string(), r#"(level == "ERROR" and ts between 100 and 200)"#);
/// let q = not(col("latency").gt(5.5)).or(col("user").is_null());
/// assert_eq!(q.to_string(), "(not latency > 5.5 or user is null)");
/// assert_eq!(q.columns(), vec!["latency", "user"]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Predicate {
    /// `column op value`.
    Compare {
        /// Dotted path of the leaf.
        column: String,
        /// Operator.
        op: CmpOp,
        /// Literal.
        value: Scalar,
    },
    /// `low <= column <= high`.
    Between {
        /// Dotted path of the leaf.
        column: String,
        /// Lower bound (inclusive).
        low: Scalar,
        /// Upper bound (inclusive).
        high: Scalar,
    },
    /// `column` equals one of `values`.
    InList {
        /// Dotted path of the leaf.
        column: String,
        /// Literals.
        values: Vec<Scalar>,
    },
    /// `column` is null.
    IsNull {
        /// Dotted path of the leaf.
        column: String,
    },
    /// `column` is not null.
    IsNotNull {
        /// Dotted path of the leaf.
        column: String,
    },
    /// The bounding box of the GEOMETRY / GEOGRAPHY value in `column` meets the box
    /// `[xmin, xmax] x [ymin, ymax]` (`xmin > xmax` wraps around the antimeridian). Null, empty
    /// and invalid values do not.
    IntersectsBbox {
        /// Dotted path of the leaf.
        column: String,
        /// `[xmin, ymin, xmax, ymax]`.
        bbox: [f64; 4],
    },
    /// Both hold.
    And(Box<Predicate>, Box<Predicate>),
    /// Either holds.
    Or(Box<Predicate>, Box<Predicate>),
    /// The inner predicate is false (unknown stays unknown).
    Not(Box<Predicate>),
}

/// A column named by its dotted path, to build predicates on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    path: String,
}

/// The leaf column at the dotted `path` (`"ts"`, `"request.headers.list.element"`).
pub fn col(path: impl Into<String>) -> Column {
    Column { path: path.into() }
}

/// The negation of `predicate` (also `!predicate`).
pub fn not(predicate: Predicate) -> Predicate {
    Predicate::Not(Box::new(predicate))
}

impl Column {
    /// The dotted path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Field `name` of the VARIANT value in this column: the path
    /// `<column>.typed_value.<name>`; chain it for nested objects.
    ///
    /// - In a **shredded** column (VariantShredding.md), a test on it reads the field's
    ///   `typed_value` leaf, so row groups and pages are skipped by that column's statistics
    ///   like those of any leaf. Only values of the shredded type are compared: where the
    ///   field is missing, or held in its `value` column because it has another type, the
    ///   comparison is *unknown* (as with a null) and `is_null` is true.
    /// - In an **unshredded** column (`metadata` and `value` only), the path is the same as
    ///   `<column>.<name>` in [`Predicate::parse`]: each row's value is decoded and cast to
    ///   the literal's type as DuckDB's `TRY_CAST` does (a missing field or a value that does
    ///   not cast matches no comparison).
    ///
    /// ```
    /// use parquet_serde::filter::col;
    /// let p = col("attrs").field("http").field("status").eq(500);
    /// assert_eq!(p.to_string(), "attrs.typed_value.http.typed_value.status == 500");
    /// ```
    pub fn field(mut self, name: &str) -> Column {
        self.path.push_str(".typed_value.");
        self.path.push_str(name);
        self
    }

    fn cmp(self, op: CmpOp, value: impl Into<Scalar>) -> Predicate {
        Predicate::Compare {
            column: self.path,
            op,
            value: value.into(),
        }
    }

    /// `column == value`.
    pub fn eq(self, value: impl Into<Scalar>) -> Predicate {
        self.cmp(CmpOp::Eq, value)
    }

    /// `column != value`.
    pub fn ne(self, value: impl Into<Scalar>) -> Predicate {
        self.cmp(CmpOp::Ne, value)
    }

    /// `column < value`.
    pub fn lt(self, value: impl Into<Scalar>) -> Predicate {
        self.cmp(CmpOp::Lt, value)
    }

    /// `column <= value`.
    pub fn le(self, value: impl Into<Scalar>) -> Predicate {
        self.cmp(CmpOp::Le, value)
    }

    /// `column > value`.
    pub fn gt(self, value: impl Into<Scalar>) -> Predicate {
        self.cmp(CmpOp::Gt, value)
    }

    /// `column >= value`.
    pub fn ge(self, value: impl Into<Scalar>) -> Predicate {
        self.cmp(CmpOp::Ge, value)
    }

    /// `low <= column <= high`.
    pub fn between(self, low: impl Into<Scalar>, high: impl Into<Scalar>) -> Predicate {
        Predicate::Between {
            column: self.path,
            low: low.into(),
            high: high.into(),
        }
    }

    /// `column` equals one of `values`.
    pub fn in_list<T: Into<Scalar>>(self, values: impl IntoIterator<Item = T>) -> Predicate {
        Predicate::InList {
            column: self.path,
            values: values.into_iter().map(Into::into).collect(),
        }
    }

    /// `column` is null.
    pub fn is_null(self) -> Predicate {
        Predicate::IsNull { column: self.path }
    }

    /// `column` is not null.
    pub fn is_not_null(self) -> Predicate {
        Predicate::IsNotNull { column: self.path }
    }

    /// The geometry's bounding box meets `[xmin, xmax] x [ymin, ymax]`: a GEOMETRY or
    /// GEOGRAPHY column, pruned by the bounding boxes of its GeospatialStatistics and tested
    /// row by row on each value's own box. A box with `xmin > xmax` crosses the antimeridian.
    ///
    /// ```
    /// use parquet_serde::col;
    /// let p = col("geom").intersects_bbox(-10.0, 40.0, 5.0, 52.0);
    /// assert_eq!(p.to_string(), "geom intersects bbox(-10, 40, 5, 52)");
    /// ```
    pub fn intersects_bbox(self, xmin: f64, ymin: f64, xmax: f64, ymax: f64) -> Predicate {
        Predicate::IntersectsBbox {
            column: self.path,
            bbox: [xmin, ymin, xmax, ymax],
        }
    }
}

impl Predicate {
    /// Both `self` and `other` hold.
    pub fn and(self, other: Predicate) -> Predicate {
        Predicate::And(Box::new(self), Box::new(other))
    }

    /// `self` or `other` holds.
    pub fn or(self, other: Predicate) -> Predicate {
        Predicate::Or(Box::new(self), Box::new(other))
    }

    /// The dotted paths of the columns the predicate reads, in first-use order.
    pub fn columns(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.walk(&mut |c| {
            if !out.contains(&c) {
                out.push(c);
            }
        });
        out
    }

    fn walk<'a>(&'a self, f: &mut impl FnMut(&'a str)) {
        match self {
            Predicate::Compare { column, .. }
            | Predicate::Between { column, .. }
            | Predicate::InList { column, .. }
            | Predicate::IsNull { column }
            | Predicate::IsNotNull { column }
            | Predicate::IntersectsBbox { column, .. } => f(column),
            Predicate::And(a, b) | Predicate::Or(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Predicate::Not(p) => p.walk(f),
        }
    }
}

impl std::ops::Not for Predicate {
    type Output = Predicate;

    fn not(self) -> Predicate {
        not(self)
    }
}

impl std::ops::BitAnd for Predicate {
    type Output = Predicate;

    fn bitand(self, other: Predicate) -> Predicate {
        self.and(other)
    }
}

impl std::ops::BitOr for Predicate {
    type Output = Predicate;

    fn bitor(self, other: Predicate) -> Predicate {
        self.or(other)
    }
}

impl fmt::Display for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Predicate::Compare { column, op, value } => {
                write!(f, "{column} {} {value}", op.symbol())
            }
            Predicate::Between { column, low, high } => {
                write!(f, "{column} between {low} and {high}")
            }
            Predicate::InList { column, values } => {
                write!(f, "{column} in (")?;
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
            Predicate::IsNull { column } => write!(f, "{column} is null"),
            Predicate::IsNotNull { column } => write!(f, "{column} is not null"),
            Predicate::IntersectsBbox { column, bbox } => {
                let [x0, y0, x1, y1] = bbox;
                write!(f, "{column} intersects bbox({x0}, {y0}, {x1}, {y1})")
            }
            Predicate::And(a, b) => write!(f, "({a} and {b})"),
            Predicate::Or(a, b) => write!(f, "({a} or {b})"),
            Predicate::Not(p) => write!(f, "not {p}"),
        }
    }
}
