//! [`Predicate`]: a filter over the leaf columns of a file, built with [`col`].

use std::fmt;

use crate::core::column::Scalar;

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
    /// Whether `value <op> literal` holds, given `value.cmp(literal)`.
    pub(crate) fn holds(self, o: std::cmp::Ordering) -> bool {
        match self {
            CmpOp::Eq => o.is_eq(),
            CmpOp::Ne => o.is_ne(),
            CmpOp::Lt => o.is_lt(),
            CmpOp::Le => o.is_le(),
            CmpOp::Gt => o.is_gt(),
            CmpOp::Ge => o.is_ge(),
        }
    }

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
/// predicate is *true*. So `!col("a").eq(1)` selects the same rows as
/// `col("a").ne(1)`: neither selects rows where `a` is null.
///
/// Floating point values compare by value with -0.0 equal to +0.0 and NaN equal to NaN
/// and greater than every other value (as PostgreSQL and DuckDB order them). Literals
/// compare in the column's logical type, exactly (DECIMAL by value, timestamps to every
/// fraction digit): see [the module](crate::filter#what-literals-mean).
///
/// A leaf under a repeated field (`tags.list.element`) tests every value of the row: the
/// row matches when *any* value does (a comparison with an empty or null list is unknown),
/// `is_null` is true when the row has a null value or an empty or null list, and
/// `is_not_null` when it has a non-null value.
///
/// ```
/// use parquet_serde::filter::col;
/// let p = col("level").eq("ERROR").and(col("ts").between(100, 200));
/// assert_eq!(p.to_string(), r#"(level == "ERROR" and ts between 100 and 200)"#);
/// let q = (!col("latency").gt(5.5)).or(col("user").is_null());
/// assert_eq!(q.to_string(), "(not latency > 5.5 or user is null)");
/// assert_eq!(q.columns(), vec!["latency", "user"]);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
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
    /// `column like pattern`, SQL's LIKE on text: `%` stands for any run of characters
    /// (none too), `_` for one character; every other character stands for itself (no
    /// escape character), case-sensitive.
    Like {
        /// Dotted path of the leaf.
        column: String,
        /// The pattern.
        pattern: String,
    },
    /// `left op right`, two columns of the same row: numbers (integers, DECIMAL, floats)
    /// with numbers, text with text, booleans with booleans, instants (DATE, TIMESTAMP,
    /// INT96) with instants, TIME with TIME. Neither may be under a repeated field.
    CompareColumns {
        /// Dotted path of the left leaf.
        left: String,
        /// Operator.
        op: CmpOp,
        /// Dotted path of the right leaf.
        right: String,
    },
    /// SQL's `null` as a condition: *unknown* for every row, so it selects no row, and
    /// neither does its negation. `x in (1, null)` is `x in (1) or null`: true where
    /// `x = 1`, else unknown.
    Unknown,
    /// Both hold.
    And(Box<Predicate>, Box<Predicate>),
    /// Either holds.
    Or(Box<Predicate>, Box<Predicate>),
    /// The inner predicate is false (unknown stays unknown).
    Not(Box<Predicate>),
}

/// The right side of a comparison: a literal, or another column (`col("a").lt(col("b"))`).
/// Public only as the bound of [`Column`]'s comparisons: users pass a literal or a
/// `Column`, never name it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Operand {
    /// A literal value.
    Value(Scalar),
    /// A column of the same row.
    Column(Column),
}

impl<T: Into<Scalar>> From<T> for Operand {
    fn from(v: T) -> Operand {
        Operand::Value(v.into())
    }
}

impl From<Column> for Operand {
    fn from(c: Column) -> Operand {
        Operand::Column(c)
    }
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

/// The negation of `predicate` (`!predicate`).
pub(crate) fn not(predicate: Predicate) -> Predicate {
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
    /// - Where the column shreds the field (VariantShredding.md), a test on it reads the
    ///   field's `typed_value` leaf, so row groups and pages are skipped by that column's
    ///   statistics like those of any leaf. Only values of the shredded type are compared:
    ///   where the field is missing, or held in its `value` column because it has another
    ///   type, the comparison is *unknown* (as with a null) and `is_null` is true. (The
    ///   dotted text path `<column>.<name>` finds those values too, row by row.)
    /// - Elsewhere (an unshredded column, or a field the column does not shred), the path is
    ///   the same as `<column>.<name>` in [`Predicate::parse`]: each row's value is decoded
    ///   and cast to the literal's type as DuckDB's `TRY_CAST` does (a missing field or a
    ///   value that does not cast matches no comparison); see [the module](crate::filter).
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

    fn cmp(self, op: CmpOp, value: impl Into<Operand>) -> Predicate {
        match value.into() {
            Operand::Value(value) => Predicate::Compare {
                column: self.path,
                op,
                value,
            },
            Operand::Column(right) => Predicate::CompareColumns {
                left: self.path,
                op,
                right: right.path,
            },
        }
    }

    /// `column == value`; `value` is a literal or another [`Column`].
    ///
    /// ```
    /// use parquet_serde::filter::col;
    /// assert_eq!(col("a").eq(1).to_string(), "a == 1");
    /// assert_eq!(col("a").lt(col("b")).to_string(), "a < b");
    /// ```
    pub fn eq(self, value: impl Into<Operand>) -> Predicate {
        self.cmp(CmpOp::Eq, value)
    }

    /// `column != value` (a literal or another column).
    pub fn ne(self, value: impl Into<Operand>) -> Predicate {
        self.cmp(CmpOp::Ne, value)
    }

    /// `column < value` (a literal or another column).
    pub fn lt(self, value: impl Into<Operand>) -> Predicate {
        self.cmp(CmpOp::Lt, value)
    }

    /// `column <= value` (a literal or another column).
    pub fn le(self, value: impl Into<Operand>) -> Predicate {
        self.cmp(CmpOp::Le, value)
    }

    /// `column > value` (a literal or another column).
    pub fn gt(self, value: impl Into<Operand>) -> Predicate {
        self.cmp(CmpOp::Gt, value)
    }

    /// `column >= value` (a literal or another column).
    pub fn ge(self, value: impl Into<Operand>) -> Predicate {
        self.cmp(CmpOp::Ge, value)
    }

    /// `column like pattern`: SQL's LIKE on a text column (`%` any run of characters,
    /// `_` one character, case-sensitive, no escape character).
    ///
    /// ```
    /// use parquet_serde::filter::col;
    /// assert_eq!(col("route").like("/api/%").to_string(), "route like \"/api/%\"");
    /// ```
    pub fn like(self, pattern: impl Into<String>) -> Predicate {
        Predicate::Like {
            column: self.path,
            pattern: pattern.into(),
        }
    }

    /// `column is true` on a BOOLEAN column: false, never unknown, where it is null.
    ///
    /// ```
    /// use parquet_serde::filter::col;
    /// assert_eq!(col("ok").is_true().to_string(), "(ok == true and ok is not null)");
    /// ```
    pub fn is_true(self) -> Predicate {
        let path = self.path.clone();
        self.eq(true).and(col(path).is_not_null())
    }

    /// `column is false` on a BOOLEAN column: false, never unknown, where it is null.
    pub fn is_false(self) -> Predicate {
        let path = self.path.clone();
        self.eq(false).and(col(path).is_not_null())
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
            | Predicate::IntersectsBbox { column, .. }
            | Predicate::Like { column, .. } => f(column),
            Predicate::CompareColumns { left, right, .. } => {
                f(left);
                f(right);
            }
            Predicate::Unknown => {}
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
            Predicate::Like { column, pattern } => {
                write!(f, "{column} like {}", Scalar::from(pattern.as_str()))
            }
            Predicate::CompareColumns { left, op, right } => {
                write!(f, "{left} {} {right}", op.symbol())
            }
            Predicate::Unknown => f.write_str("null"),
            Predicate::And(a, b) => write!(f, "({a} and {b})"),
            Predicate::Or(a, b) => write!(f, "({a} or {b})"),
            Predicate::Not(p) => write!(f, "not {p}"),
        }
    }
}
