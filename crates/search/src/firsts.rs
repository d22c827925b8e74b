//! Each record's first value id in one column, stored densely (an array indexed by record id)
//! while most records hold a value, and sparsely (record ids sorted beside their value ids)
//! otherwise, so a column's memory follows the records that hold a value, not the highest id.
//!
//! Hand-written rather than a crate: it is two arrays and a switch between them, and what
//! matters is that a dense read stays one array access on the search's hot path.

/// The id of no value.
pub(crate) const ABSENT: u32 = u32::MAX;

/// A sparse column becomes dense once its array would cost at most this many ids per holder
/// (128 bytes, against 8 sparse): a field one record in thirty-two holds is read at array speed.
const DENSE_AT: usize = 32;
/// A dense column becomes sparse again once its array costs more than this many per holder:
/// far from `DENSE_AT`, so a record coming and going does not switch it back and forth.
const SPARSE_AT: usize = 128;
/// Below this many holders a column stays sparse: a binary search over them is as quick.
const SMALL: usize = 64;

/// See the module's comment.
#[derive(Debug)]
pub(crate) enum Firsts {
    /// By record id: the id of its first value, or `ABSENT`.
    Dense { ids: Vec<u32>, holders: usize },
    /// `(record id, value id)`, ascending by record id.
    Sparse(Vec<(u32, u32)>),
}

impl Default for Firsts {
    fn default() -> Self {
        Firsts::Sparse(Vec::new())
    }
}

impl Firsts {
    /// The id of record `rid`'s first value.
    #[inline]
    pub(crate) fn get(&self, rid: u32) -> Option<u32> {
        match self {
            Firsts::Dense { ids, .. } => ids.get(rid as usize).copied().filter(|id| *id != ABSENT),
            Firsts::Sparse(pairs) => pairs
                .binary_search_by_key(&rid, |(r, _)| *r)
                .ok()
                .map(|at| pairs[at].1),
        }
    }

    /// How many records hold a value.
    pub(crate) fn holders(&self) -> usize {
        match self {
            Firsts::Dense { holders, .. } => *holders,
            Firsts::Sparse(pairs) => pairs.len(),
        }
    }

    /// Gives record `rid`, which holds none yet, its first value `id`.
    pub(crate) fn set(&mut self, rid: u32, id: u32) {
        let span = rid as usize + 1;
        let holders = self.holders() + 1;
        match self {
            Firsts::Dense { .. } if span > holders * SPARSE_AT => {
                self.make_sparse();
                self.set(rid, id);
            }
            Firsts::Dense { ids, holders } => {
                if ids.len() < span {
                    ids.resize(span, ABSENT);
                }
                ids[rid as usize] = id;
                *holders += 1;
            }
            Firsts::Sparse(pairs) => {
                match pairs.last() {
                    Some((last, _)) if *last > rid => {
                        let at = pairs.partition_point(|(r, _)| *r < rid);
                        pairs.insert(at, (rid, id));
                    }
                    _ => pairs.push((rid, id)),
                }
                let span = pairs.last().map_or(0, |(r, _)| *r as usize + 1);
                if holders >= SMALL && span <= holders * DENSE_AT {
                    self.make_dense();
                }
            }
        }
    }

    /// Takes record `rid`'s first value id away, if it had one.
    pub(crate) fn take(&mut self, rid: u32) -> Option<u32> {
        let taken = match self {
            Firsts::Dense { ids, holders } => {
                let slot = ids.get_mut(rid as usize)?;
                let id = std::mem::replace(slot, ABSENT);
                if id == ABSENT {
                    return None;
                }
                *holders -= 1;
                while ids.last() == Some(&ABSENT) {
                    ids.pop();
                }
                if ids.capacity() > 2 * ids.len() + 64 {
                    ids.shrink_to(ids.len() + ids.len() / 2);
                }
                if *holders == 0 || ids.len() > *holders * SPARSE_AT {
                    self.make_sparse();
                }
                id
            }
            Firsts::Sparse(pairs) => {
                let at = pairs.binary_search_by_key(&rid, |(r, _)| *r).ok()?;
                let (_, id) = pairs.remove(at);
                if pairs.capacity() > 2 * pairs.len() + 8 {
                    pairs.shrink_to(pairs.len() + pairs.len() / 2);
                }
                id
            }
        };
        Some(taken)
    }

    /// Bytes held, roughly.
    pub(crate) fn bytes(&self) -> usize {
        match self {
            Firsts::Dense { ids, .. } => ids.capacity() * 4,
            Firsts::Sparse(pairs) => pairs.capacity() * 8,
        }
    }

    fn make_sparse(&mut self) {
        if let Firsts::Dense { ids, .. } = self {
            let pairs = ids
                .iter()
                .enumerate()
                .filter(|(_, id)| **id != ABSENT)
                .map(|(rid, id)| (rid as u32, *id))
                .collect();
            *self = Firsts::Sparse(pairs);
        }
    }

    fn make_dense(&mut self) {
        if let Firsts::Sparse(pairs) = self {
            let span = pairs.last().map_or(0, |(r, _)| *r as usize + 1);
            let mut ids = vec![ABSENT; span];
            for (rid, id) in pairs.iter() {
                ids[*rid as usize] = *id;
            }
            let holders = pairs.len();
            *self = Firsts::Dense { ids, holders };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_between_dense_and_sparse_and_keeps_every_value() {
        let mut firsts = Firsts::default();
        for rid in 0..200 {
            firsts.set(rid, rid * 10);
        }
        assert!(matches!(firsts, Firsts::Dense { .. }));
        firsts.set(1_000_000, 7);
        assert!(matches!(firsts, Firsts::Sparse(_)), "one far record");
        assert!(firsts.bytes() < 4096, "{} bytes", firsts.bytes());
        assert_eq!(firsts.get(1_000_000), Some(7));
        assert_eq!(firsts.take(1_000_000), Some(7));
        for rid in 0..200 {
            assert_eq!(firsts.get(rid), Some(rid * 10));
        }
        for rid in 0..200 {
            assert_eq!(firsts.take(rid), Some(rid * 10));
        }
        assert_eq!(firsts.take(3), None);
        assert_eq!(firsts.holders(), 0);
        assert!(firsts.bytes() <= 8 * 8, "{} bytes", firsts.bytes());
    }
}
