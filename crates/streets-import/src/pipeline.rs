//! Where every format's features go, one at a time in file order: checked, reprojected, and
//! handed to the caller's [`StreetSink`] in batches. Memory is one batch plus the street numbers
//! read so far (8 bytes a street), which the uniqueness check needs.

use crate::crs::Reprojector;
use crate::validate::FeatureResult;
use crate::{Crs, FeatureProblem, ImportError, ImportedStreet};

/// Receives the streets of a file as it is read.
///
/// [`batch`](Self::batch) is called with consecutive batches of valid streets in file order,
/// before the file has been read to its end: a later feature may still refuse the whole file
/// (the reader's result is then an error), so a sink that writes must not make the streets
/// visible until the read has succeeded.
pub trait StreetSink {
    /// Called once, before the first batch, with the file's feature count when it is known
    /// up front.
    fn start(&mut self, _feature_count: Option<u64>) {}

    /// The next streets of the file. An error stops the read, which returns it.
    fn batch(&mut self, streets: Vec<ImportedStreet>) -> Result<(), ImportError>;
}

/// The most streets a batch reserves room for up front (a batch as large as the file, as
/// [`crate::read_file`] asks for, grows as needed).
const MAX_RESERVED: usize = 16 * 1024;

/// The checks of a whole file, fed one feature at a time.
pub(crate) struct Pipeline<'s> {
    crs: Crs,
    /// Made for the first feature, so that an empty file needs no usable CRS.
    reprojector: Option<Reprojector>,
    /// Every number read so far, in file order (the index of a number is its feature's).
    numbers: Vec<i64>,
    batch: Vec<ImportedStreet>,
    batch_size: usize,
    sink: &'s mut dyn StreetSink,
    /// Why the read stopped, when a format reader's callback had to stop it.
    failure: Option<ImportError>,
}

impl<'s> Pipeline<'s> {
    pub(crate) fn new(crs: Crs, batch_size: usize, sink: &'s mut dyn StreetSink) -> Self {
        let batch_size = batch_size.max(1);
        Self {
            crs,
            reprojector: None,
            numbers: Vec::new(),
            batch: Vec::with_capacity(batch_size.min(MAX_RESERVED)),
            batch_size,
            sink,
            failure: None,
        }
    }

    /// The feature count, if known, to the sink (once, before any feature).
    pub(crate) fn start(&mut self, feature_count: Option<u64>) {
        self.sink.start(feature_count);
    }

    /// The index the next feature has.
    pub(crate) fn next_index(&self) -> usize {
        self.numbers.len()
    }

    pub(crate) fn reprojector(&mut self) -> Result<&Reprojector, ImportError> {
        Ok(match &mut self.reprojector {
            Some(reprojector) => reprojector,
            slot @ None => slot.insert(Reprojector::new(&self.crs)?),
        })
    }

    /// The next feature, read and checked (or why not). An invalid feature refuses the file,
    /// unless an earlier feature already repeated a number: that one is reported, as the
    /// first problem in file order.
    pub(crate) fn push(
        &mut self,
        street: FeatureResult<ImportedStreet>,
    ) -> Result<(), ImportError> {
        let index = self.next_index();
        match street {
            Ok(street) => {
                self.numbers.push(street.number);
                self.batch.push(street);
                if self.batch.len() >= self.batch_size {
                    self.flush()?;
                }
                Ok(())
            }
            Err((number, problem)) => {
                self.check_unique()?;
                Err(ImportError::Feature {
                    index,
                    number,
                    problem,
                })
            }
        }
    }

    fn flush(&mut self) -> Result<(), ImportError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let full = std::mem::replace(
            &mut self.batch,
            Vec::with_capacity(self.batch_size.min(MAX_RESERVED)),
        );
        self.sink.batch(full)
    }

    /// Keeps why a format reader's callback stopped the read, for [`Pipeline::take_failure`].
    pub(crate) fn stop(&mut self, error: ImportError) {
        if self.failure.is_none() {
            self.failure = Some(error);
        }
    }

    pub(crate) fn take_failure(&mut self) -> Option<ImportError> {
        self.failure.take()
    }

    /// The end of the file: the uniqueness check over every number, then the last batch.
    /// Returns how many streets the file held.
    pub(crate) fn finish(mut self) -> Result<u64, ImportError> {
        if let Some(failure) = self.failure.take() {
            return Err(failure);
        }
        self.check_unique()?;
        self.flush()?;
        Ok(self.numbers.len() as u64)
    }

    /// The first feature (in file order) whose number an earlier one has, if any.
    fn check_unique(&self) -> Result<(), ImportError> {
        match first_duplicate(&self.numbers) {
            Some((first_index, index)) => {
                let number = self.numbers[index];
                Err(ImportError::Feature {
                    index,
                    number: Some(number),
                    problem: FeatureProblem::DuplicateNumber {
                        number,
                        first_index,
                    },
                })
            }
            None => Ok(()),
        }
    }
}

/// Among numbers used more than once, the one whose second use comes first: `(index of its
/// first use, index of its second use)`. Sorting 4-byte indices keeps the memory small.
fn first_duplicate(numbers: &[i64]) -> Option<(usize, usize)> {
    let mut order: Vec<u32> = (0..u32::try_from(numbers.len()).unwrap_or(u32::MAX)).collect();
    // By number, then by position: each run of equal numbers starts with its first use.
    order.sort_unstable_by_key(|&i| (numbers[i as usize], i));
    order
        .windows(2)
        .filter(|w| numbers[w[0] as usize] == numbers[w[1] as usize])
        .map(|w| (w[0] as usize, w[1] as usize))
        .fold(None, |best: Option<(usize, usize)>, (first, second)| {
            // Within a run the pairs are (a, b), (b, c), …: the pair starting the run is the
            // one with the smallest second index, and the earliest second use wins overall.
            match best {
                Some((_, s)) if s <= second => best,
                _ => Some((first, second)),
            }
        })
}

#[cfg(test)]
mod tests {
    use super::first_duplicate;

    #[test]
    fn finds_the_first_repeated_number_in_file_order() {
        assert_eq!(first_duplicate(&[]), None);
        assert_eq!(first_duplicate(&[1, 2, 3]), None);
        assert_eq!(first_duplicate(&[5, 1, 5]), Some((0, 2)));
        // 7 is repeated at 3, before 5's repetition at 4; 7's third use at 5 does not count.
        assert_eq!(first_duplicate(&[7, 5, 1, 7, 5, 7]), Some((0, 3)));
        assert_eq!(first_duplicate(&[9, 9, 9]), Some((0, 1)));
    }
}
