//! Little-endian (LSB-first) bit packing kernels, the order of the RLE / bit-packing hybrid
//! and of DELTA_BINARY_PACKED miniblocks.
//!
//! Unpacking works 32 values at a time: 32 values of `w` bits are exactly `4 * w` bytes,
//! i.e. `w` little-endian `u32` words. There is one function per width (a const generic,
//! with the 32 steps written out by a macro), so every shift and mask is a constant and
//! the loop body is straight-line code with no per-value branch.

/// An output type of the unpackers: `u32` for dictionary indices, `i16` for levels, `bool`
/// for booleans. The conversion is a plain cast (values never exceed the bit width).
pub(crate) trait FromPacked: Copy {
    /// Converts an unpacked value.
    fn from_packed(v: u32) -> Self;
}

impl FromPacked for u32 {
    #[inline(always)]
    fn from_packed(v: u32) -> Self {
        v
    }
}

impl FromPacked for i16 {
    #[inline(always)]
    fn from_packed(v: u32) -> Self {
        v as i16
    }
}

impl FromPacked for bool {
    #[inline(always)]
    fn from_packed(v: u32) -> Self {
        v != 0
    }
}

/// Expands `$body` 32 times with `$i` bound to the constants 0 to 31.
macro_rules! unroll32 {
    ($i:ident => $body:block) => {
        unroll32!(@go $i $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
            16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
    };
    (@go $i:ident $body:block; $($n:literal)*) => {
        $({
            const $i: usize = $n;
            $body
        })*
    };
}

#[inline(always)]
fn read_u32(bytes: &[u8], word: usize) -> u32 {
    let i = word * 4;
    u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]])
}

/// Unpacks 32 values of `W` bits from `input[..4 * W]` into `out[..32]`.
#[inline(always)]
fn unpack32<const W: usize, T: FromPacked>(input: &[u8], out: &mut [T]) {
    let input = &input[..W * 4];
    let out = &mut out[..32];
    let mask = ((1u64 << W) - 1) as u32;
    unroll32!(I => {
        let bit = I * W;
        let word = bit / 32;
        let shift = bit % 32;
        let mut v = read_u32(input, word) >> shift;
        if shift + W > 32 {
            v |= read_u32(input, word + 1) << (32 - shift);
        }
        out[I] = T::from_packed(v & mask);
    });
}

/// Unpacks `out.len() / 32` blocks of 32 values of `W` bits.
#[inline(never)]
fn unpack_blocks<const W: usize, T: FromPacked>(input: &[u8], out: &mut [T]) {
    if W == 0 {
        out.fill(T::from_packed(0));
        return;
    }
    for (src, dst) in input.chunks_exact(4 * W).zip(out.chunks_exact_mut(32)) {
        unpack32::<W, T>(src, dst);
    }
}

/// Unpacks values of `bit_width` bits (0 to 32) into `out`, whose length must be a multiple
/// of 32; `input` must hold `out.len() / 32 * 4 * bit_width` bytes. Short inputs, a ragged
/// `out` or a width above 32 leave the rest of `out` untouched (callers check first).
pub(crate) fn unpack<T: FromPacked>(bit_width: u8, input: &[u8], out: &mut [T]) {
    debug_assert!(out.len() & 31 == 0);
    debug_assert!(input.len() >= out.len() / 32 * 4 * bit_width as usize);
    macro_rules! dispatch {
        ($($w:literal)*) => {
            match bit_width {
                $($w => unpack_blocks::<$w, T>(input, out),)*
                _ => debug_assert!(false, "bit width {bit_width} above 32"),
            }
        };
    }
    dispatch!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
}

/// Unpacks `n <= 32` values of `bit_width` bits from the first `ceil(n * bit_width / 8)`
/// bytes of `input` (which may be that short) into `out[..32]`; returns the bytes used, or
/// `None` when `input` is shorter than that.
pub(crate) fn unpack_tail<T: FromPacked>(
    bit_width: u8,
    input: &[u8],
    n: usize,
    out: &mut [T; 32],
) -> Option<usize> {
    debug_assert!(n <= 32 && bit_width <= 32);
    let nbytes = (n * bit_width as usize).div_ceil(8);
    let mut padded = [0u8; 128];
    padded[..nbytes].copy_from_slice(input.get(..nbytes)?);
    unpack(bit_width, &padded[..4 * bit_width as usize], &mut out[..]);
    Some(nbytes)
}

/// Appends 8 values of `bit_width` bits (0 to 32), LSB first: exactly `bit_width` bytes.
/// Bits of a value above the width are dropped.
#[inline]
pub(crate) fn pack8(values: &[u32; 8], bit_width: u8, out: &mut Vec<u8>) {
    let w = bit_width as usize;
    let mask = ((1u64 << w) - 1) as u32;
    // Levels and most dictionary indices: the 8 values fit one or two words, built without
    // a branch per value and appended at once.
    if w <= 8 {
        let mut acc = 0u64;
        for (i, &v) in values.iter().enumerate() {
            acc |= u64::from(v & mask) << (i * w);
        }
        out.extend_from_slice(&acc.to_le_bytes()[..w]);
        return;
    }
    if w <= 16 {
        let mut acc = 0u128;
        for (i, &v) in values.iter().enumerate() {
            acc |= u128::from(v & mask) << (i * w);
        }
        out.extend_from_slice(&acc.to_le_bytes()[..w]);
        return;
    }
    let mut acc = 0u64;
    let mut bits = 0usize;
    for &v in values {
        acc |= u64::from(v & mask) << bits;
        bits += w;
        if bits >= 32 {
            out.extend_from_slice(&(acc as u32).to_le_bytes());
            acc >>= 32;
            bits -= 32;
        }
    }
    // 8 * w bits in all: what is left is a whole number of bytes.
    out.extend_from_slice(&acc.to_le_bytes()[..bits / 8]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-by-bit reference packer.
    fn pack_ref(values: &[u32], w: usize) -> Vec<u8> {
        let mut out = vec![0u8; (values.len() * w).div_ceil(8)];
        for (i, &v) in values.iter().enumerate() {
            for b in 0..w {
                if v >> b & 1 == 1 {
                    let bit = i * w + b;
                    out[bit / 8] |= 1 << (bit % 8);
                }
            }
        }
        out
    }

    fn values(n: usize, w: u8) -> Vec<u32> {
        let mask = ((1u64 << w) - 1) as u32;
        (0..n as u32)
            .map(|i| i.wrapping_mul(2_654_435_761).rotate_left(i % 32) & mask)
            .collect()
    }

    #[test]
    fn spec_example_width_3() {
        // Encodings.md: 0..=7 with bit width 3 packs to 10001000 11000110 11111010.
        let mut out = Vec::new();
        pack8(&[0, 1, 2, 3, 4, 5, 6, 7], 3, &mut out);
        assert_eq!(out, [0b1000_1000, 0b1100_0110, 0b1111_1010]);
        let mut vals = [0u32; 32];
        assert_eq!(unpack_tail(3, &out, 8, &mut vals), Some(3));
        assert_eq!(&vals[..8], &[0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn every_width_matches_reference() {
        for w in 0..=32u8 {
            let v = values(96, w);
            let packed = pack_ref(&v, w as usize);
            let mut mine = Vec::new();
            for chunk in v.chunks_exact(8) {
                pack8(chunk.try_into().unwrap(), w, &mut mine);
            }
            assert_eq!(mine, packed, "pack width {w}");
            let mut out = vec![0u32; 96];
            unpack(w, &packed, &mut out);
            assert_eq!(out, v, "unpack width {w}");
            let mut out16 = vec![0i16; 96];
            unpack(w, &packed, &mut out16);
            assert!(out16.iter().zip(&v).all(|(&a, &b)| a == b as i16));
            for n in [0, 1, 7, 8, 31, 32] {
                let mut tail = [u32::MAX; 32];
                let used = unpack_tail(w, &packed[..(n * w as usize).div_ceil(8)], n, &mut tail);
                assert_eq!(used, Some((n * w as usize).div_ceil(8)));
                assert_eq!(&tail[..n], &v[..n], "tail width {w} n {n}");
            }
        }
    }

    #[test]
    fn short_tail_input() {
        let mut out = [0u32; 32];
        assert_eq!(unpack_tail(5, &[1, 2], 8, &mut out), None);
    }
}
