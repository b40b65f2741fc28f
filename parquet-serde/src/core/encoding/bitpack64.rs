//! Little-endian (LSB-first) bit packing of values up to 64 bits wide: the kernels of
//! DELTA_BINARY_PACKED miniblocks and ALP vectors (the 32-bit kernels of the RLE hybrid are
//! in `bitpack`).
//!
//! Unpacking works 32 values at a time: 32 values of `W` bits are exactly `4 * W` bytes.
//! There is one function per width (a const generic, with the 32 steps written out by a
//! macro), so every offset, shift and mask is a constant and the body is straight-line code:
//! one unaligned 8-byte load per value (two for widths above 56 when the value straddles).
//! Callers pass a closure that receives each value, so decoding (prefix sums, frame of
//! reference, conversion) is fused into the unpacking loop.

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

/// Runs `$body` with the constant `$w: usize` equal to the runtime bit width `$width`
/// (0 to 64); `$other` runs for widths above 64.
macro_rules! with_width {
    ($width:expr, $w:ident => $body:expr, _ => $other:expr) => {
        with_width!(@go $width, $w, $body, $other; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
            17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43
            44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64)
    };
    (@go $width:expr, $w:ident, $body:expr, $other:expr; $($n:literal)*) => {
        match $width {
            $($n => {
                const $w: usize = $n;
                $body
            })*
            _ => $other,
        }
    };
}
pub(crate) use with_width;

/// Mask of the low `w` bits (all bits for 64).
#[inline(always)]
pub(crate) const fn mask(w: usize) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// Loads 8 little-endian bytes at `byte`, zero-filled past the end of `input`.
#[inline(always)]
fn load(input: &[u8], byte: usize) -> u64 {
    let mut b = [0u8; 8];
    if byte + 8 <= input.len() {
        b.copy_from_slice(&input[byte..byte + 8]);
    } else {
        let avail = input.len() - byte;
        b[..avail].copy_from_slice(&input[byte..]);
    }
    u64::from_le_bytes(b)
}

/// Unpacks 32 values of `W` bits (1 to 64) from `input[..4 * W]`, calling `put(i, value)`
/// for `i` in 0..32 in order. Panics if `input` is shorter (callers slice first).
#[inline(always)]
pub(crate) fn unpack32_with<const W: usize>(input: &[u8], mut put: impl FnMut(usize, u64)) {
    let input = &input[..4 * W];
    let mask = mask(W);
    unroll32!(I => {
        let bit = I * W;
        let byte = bit / 8;
        let shift = bit % 8;
        let mut v = load(input, byte) >> shift;
        if shift + W > 64 {
            // The value straddles the 8 bytes loaded: its top bits are in the next byte.
            v |= (input[byte + 8] as u64) << (64 - shift);
        }
        put(I, v & mask);
    });
}

/// Unpacks `out.len()` values (a multiple of 32) of `W` bits from `input`, which must hold
/// `out.len() / 32 * 4 * W` bytes.
#[inline(never)]
fn unpack_blocks<const W: usize>(input: &[u8], out: &mut [u64]) {
    if W == 0 {
        out.fill(0);
        return;
    }
    for (src, dst) in input.chunks_exact(4 * W).zip(out.chunks_exact_mut(32)) {
        let dst = &mut dst[..32];
        unpack32_with::<W>(src, |i, v| dst[i] = v);
    }
}

/// Unpacks values of `bit_width` bits (0 to 64) into `out`, whose length must be a multiple
/// of 32; `input` must hold `out.len() / 32 * 4 * bit_width` bytes. A short input or a
/// width above 64 leaves (part of) `out` untouched: callers check first.
pub(crate) fn unpack(bit_width: u8, input: &[u8], out: &mut [u64]) {
    debug_assert!(out.len().is_multiple_of(32));
    debug_assert!(input.len() >= out.len() / 32 * 4 * bit_width as usize);
    with_width!(bit_width, W => unpack_blocks::<W>(input, out), _ => debug_assert!(false))
}

/// Unpacks `n <= 32` values of `bit_width` bits (0 to 64) from the first
/// `ceil(n * bit_width / 8)` bytes of `input` into `out[..n]` (the rest of `out` is
/// overwritten with garbage); returns the bytes used, or `None` when `input` is shorter.
pub(crate) fn unpack_tail(
    bit_width: u8,
    input: &[u8],
    n: usize,
    out: &mut [u64; 32],
) -> Option<usize> {
    debug_assert!(n <= 32 && bit_width <= 64);
    let nbytes = (n * bit_width as usize).div_ceil(8);
    let mut padded = [0u8; 256];
    padded[..nbytes].copy_from_slice(input.get(..nbytes)?);
    unpack(bit_width, &padded[..4 * bit_width as usize], &mut out[..]);
    Some(nbytes)
}

/// Appends 32 values of `W` bits (0 to 64), LSB first: exactly `4 * W` bytes. Bits above
/// the width are dropped.
#[inline(always)]
fn pack32<const W: usize>(values: &[u64], out: &mut Vec<u8>) {
    let values = &values[..32];
    let mask = mask(W);
    let mut buf = [0u8; 256];
    let mut acc = 0u64;
    unroll32!(I => {
        let bit = I * W;
        let off = bit % 64;
        let v = values[I] & mask;
        acc |= v << off;
        if off + W >= 64 {
            let word = bit / 64;
            buf[word * 8..word * 8 + 8].copy_from_slice(&acc.to_le_bytes());
            // The bits of `v` that did not fit (none when it ended the word exactly).
            acc = if off + W > 64 { v >> (64 - off) } else { 0 };
        }
    });
    if W % 2 == 1 {
        // 32 * W bits end half-way through a word: its low 4 bytes are still in `acc`.
        let at = 4 * W - 4;
        buf[at..at + 4].copy_from_slice(&acc.to_le_bytes()[..4]);
    }
    out.extend_from_slice(&buf[..4 * W]);
}

#[inline(never)]
fn pack_blocks<const W: usize>(values: &[u64], out: &mut Vec<u8>) {
    if W == 0 {
        return;
    }
    for block in values.chunks_exact(32) {
        pack32::<W>(block, out);
    }
}

/// Appends `values` (a multiple of 8 of them) packed in `bit_width` bits each (0 to 64), LSB
/// first: exactly `values.len() / 8 * bit_width` bytes. Bits above the width are dropped.
pub(crate) fn pack(values: &[u64], bit_width: u8, out: &mut Vec<u8>) {
    debug_assert!(values.len().is_multiple_of(8) && bit_width <= 64);
    let w = bit_width as u32;
    if w == 0 {
        return;
    }
    let whole = values.len() / 32 * 32;
    with_width!(bit_width, W => pack_blocks::<W>(&values[..whole], out), _ => debug_assert!(false));
    let rest = &values[whole..];
    if rest.is_empty() {
        return;
    }
    let mask = mask(w as usize);
    out.reserve(rest.len() / 8 * w as usize);
    let mut acc = 0u128;
    let mut bits = 0u32;
    for &v in rest {
        acc |= u128::from(v & mask) << bits;
        bits += w;
        if bits >= 64 {
            out.extend_from_slice(&(acc as u64).to_le_bytes());
            acc >>= 64;
            bits -= 64;
        }
    }
    // A multiple of 8 values: what is left is a whole number of bytes.
    out.extend_from_slice(&(acc as u64).to_le_bytes()[..bits as usize / 8]);
}

/// Appends `values` (any number) packed in `bit_width` bits each, then pads the last byte
/// with zero bits: `ceil(values.len() * bit_width / 8)` bytes.
pub(crate) fn pack_any(values: &[u64], bit_width: u8, out: &mut Vec<u8>) {
    let whole = values.len() / 8 * 8;
    pack(&values[..whole], bit_width, out);
    let rest = &values[whole..];
    if !rest.is_empty() {
        let mut last = [0u64; 8];
        last[..rest.len()].copy_from_slice(rest);
        let start = out.len();
        pack(&last, bit_width, out);
        out.truncate(start + (rest.len() * bit_width as usize).div_ceil(8));
    }
}

/// Bits needed to store `v` (0 for 0).
#[inline]
pub(crate) fn bits_of(v: u64) -> u8 {
    (64 - v.leading_zeros()) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-by-bit reference packer.
    fn pack_ref(values: &[u64], w: usize) -> Vec<u8> {
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

    fn values(n: usize, w: u8) -> Vec<u64> {
        let m = mask(w as usize);
        (0..n as u64)
            .map(|i| {
                i.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .rotate_left(i as u32 % 64)
                    & m
            })
            .collect()
    }

    #[test]
    fn every_width_matches_reference() {
        for w in 0..=64u8 {
            let v = values(96, w);
            let packed = pack_ref(&v, w as usize);
            let mut mine = Vec::new();
            pack(&v, w, &mut mine);
            assert_eq!(mine, packed, "pack width {w}");
            let mut mine = Vec::new();
            pack(&v[..72], w, &mut mine);
            assert_eq!(mine, pack_ref(&v[..72], w as usize), "pack 72 width {w}");
            let mut out = vec![0u64; 96];
            unpack(w, &packed, &mut out);
            assert_eq!(out, v, "unpack width {w}");
            for n in [0, 1, 7, 8, 13, 31, 32] {
                let nbytes = (n * w as usize).div_ceil(8);
                let mut tail = [u64::MAX; 32];
                assert_eq!(
                    unpack_tail(w, &packed[..nbytes], n, &mut tail),
                    Some(nbytes)
                );
                assert_eq!(&tail[..n], &v[..n], "tail width {w} n {n}");
                let mut any = Vec::new();
                pack_any(&v[..n], w, &mut any);
                assert_eq!(
                    any,
                    pack_ref(&v[..n], w as usize),
                    "pack_any width {w} n {n}"
                );
            }
        }
    }

    #[test]
    fn agrees_with_32_bit_kernels() {
        // The RLE hybrid and DELTA_BINARY_PACKED share the bit order.
        for w in 0..=32u8 {
            let v = values(64, w);
            let mut a = Vec::new();
            for c in v.chunks_exact(8) {
                let c: [u32; 8] = std::array::from_fn(|i| c[i] as u32);
                super::super::bitpack::pack8(&c, w, &mut a);
            }
            let mut b = Vec::new();
            pack(&v, w, &mut b);
            assert_eq!(a, b, "width {w}");
        }
    }

    #[test]
    fn short_tail_input() {
        let mut out = [0u64; 32];
        assert_eq!(unpack_tail(40, &[1, 2, 3], 1, &mut out), None);
        assert_eq!(bits_of(0), 0);
        assert_eq!(bits_of(u64::MAX), 64);
        assert_eq!(bits_of(1 << 40), 41);
    }
}
