//! What makes `GET /apps` fast for a query it has not seen: each column's sort orders, an index
//! of the three-byte sequences of every application's search text (for bare `q` words) and of
//! each column's values (for `key:value` terms and column parameters), and each row's JSON. A
//! query starts from the smallest list an index gives, checks its filters on those applications
//! only, walks the sort order to its page and writes the page from the rows' JSON, without
//! sorting or serialising the matches around it. The answer is byte for byte what
//! [`ListQuery::run`] serialises (a differential test compares them).
//!
//! Id, name, region and the search text never change, so their parts are built once; sync,
//! health, revision and phase move with the world, so their parts, and the rows' JSON, are built
//! again, when a query needs them, after the world's change counter moved.

use std::collections::HashMap;
use std::io::Write;

use super::{COLUMNS, Column, Filter, ListQuery};
use crate::world::App;

/// A column's sort orders: application positions ascending and descending by the column, ties in
/// position order in both (as [`ListQuery::run`] sorts).
#[derive(Debug)]
struct Orders {
    ascending: Vec<u32>,
    descending: Vec<u32>,
}

/// The indexes of one world's applications (see the module documentation).
#[derive(Debug, Default)]
pub struct ListIndex {
    /// How many applications the fixed parts were built for (`None`: not built yet).
    built_for: Option<usize>,
    /// The world's change counter the changing parts are valid at.
    changes: Option<u64>,
    /// Every three-byte sequence of the search texts (line breaks excluded) → the positions of the
    /// applications holding it, ascending.
    trigrams: HashMap<[u8; 3], Vec<u32>>,
    /// Per column (in [`COLUMNS`] order): ASCII-lower-case value → positions, ascending.
    values: [Option<HashMap<Box<str>, Vec<u32>>>; COLUMNS.len()],
    /// Per column (in [`COLUMNS`] order): its sort orders.
    orders: [Option<Orders>; COLUMNS.len()],
    /// Each application's row as JSON, made when first served.
    rows: Vec<Option<Box<[u8]>>>,
}

/// Where `column` is in [`COLUMNS`].
fn slot(column: Column) -> usize {
    COLUMNS.iter().position(|c| *c == column).unwrap_or(0)
}

/// Whether `column`'s values never change once the world is generated.
fn is_fixed(column: Column) -> bool {
    matches!(column, Column::Id | Column::Name | Column::Region)
}

/// A position as the indexes store it (a world has far fewer than 2^32 applications).
fn position(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

impl ListIndex {
    /// An empty index; parts are built when a query first needs them.
    pub fn new() -> ListIndex {
        ListIndex::default()
    }

    /// Drops what no longer holds for `apps` at the world's change counter `changes`.
    fn refresh(&mut self, apps: &[App], changes: u64) {
        if self.built_for != Some(apps.len()) {
            *self = ListIndex::default();
            self.built_for = Some(apps.len());
            self.trigrams = trigrams(apps);
        }
        if self.changes != Some(changes) {
            self.changes = Some(changes);
            for column in COLUMNS.into_iter().filter(|c| !is_fixed(*c)) {
                self.values[slot(column)] = None;
                self.orders[slot(column)] = None;
            }
            self.rows.clear();
            self.rows.resize(apps.len(), None);
        }
    }

    /// Builds the value index of every column `query` filters on and the sort order it asks for.
    fn prepare(&mut self, apps: &[App], query: &ListQuery) {
        for filter in &query.filters {
            if let Filter::Column(column, _) = filter {
                self.values[slot(*column)].get_or_insert_with(|| values(apps, *column));
            }
        }
        if let Some(column) = query.sort {
            self.orders[slot(column)].get_or_insert_with(|| orders(apps, column));
        }
    }

    /// The smallest list of positions an index gives for one of `filters` (every match is in
    /// it), or `None` when no filter has an index (every application is a candidate).
    fn candidates(&self, filters: &[Filter]) -> Option<&[u32]> {
        let mut best: Option<&[u32]> = None;
        for filter in filters {
            let list = match filter {
                Filter::Bare(finder) if finder.needle().len() >= 3 => finder
                    .needle()
                    .windows(3)
                    .map(|window| {
                        let key = [window[0], window[1], window[2]];
                        self.trigrams.get(&key).map_or(&[][..], Vec::as_slice)
                    })
                    .min_by_key(|list| list.len()),
                Filter::Column(column, value) => {
                    self.values[slot(*column)].as_ref().map(|values| {
                        values
                            .get(value.to_ascii_lowercase().as_str())
                            .map_or(&[][..], Vec::as_slice)
                    })
                }
                Filter::Bare(_) | Filter::Regex(_) => None,
            };
            if let Some(list) = list
                && best.is_none_or(|best| list.len() < best.len())
            {
                best = Some(list);
            }
        }
        best
    }

    /// The positions of the page `query` asks for, and how many applications match in all.
    fn page(&self, apps: &[App], query: &ListQuery) -> (Vec<usize>, usize) {
        let mut matched = vec![query.filters.is_empty(); apps.len()];
        let mut total = if query.filters.is_empty() {
            apps.len()
        } else {
            0
        };
        if !query.filters.is_empty() {
            let mut check = |index: usize| {
                if let Some(app) = apps.get(index)
                    && query.filters.iter().all(|filter| filter.matches(app))
                {
                    matched[index] = true;
                    total += 1;
                }
            };
            match self.candidates(&query.filters) {
                Some(list) => list.iter().for_each(|&index| check(index as usize)),
                None => (0..apps.len()).for_each(check),
            }
        }
        let order: Box<dyn Iterator<Item = usize>> = match (
            query.sort.and_then(|c| self.orders[slot(c)].as_ref()),
            query.desc,
        ) {
            (Some(orders), false) => Box::new(orders.ascending.iter().map(|&i| i as usize)),
            (Some(orders), true) => Box::new(orders.descending.iter().map(|&i| i as usize)),
            (None, false) => Box::new(0..apps.len()),
            (None, true) => Box::new((0..apps.len()).rev()),
        };
        let page = order
            .filter(|&index| matched.get(index).copied().unwrap_or(false))
            .skip(query.offset)
            .take(query.limit)
            .collect();
        (page, total)
    }

    /// The JSON of the application at `index`'s row.
    fn row(&mut self, apps: &[App], index: usize) -> Result<&[u8], serde_json::Error> {
        if self.rows.len() != apps.len() {
            self.rows.resize(apps.len(), None);
        }
        let slot = &mut self.rows[index];
        if slot.is_none() {
            *slot = Some(serde_json::to_vec(&apps[index].row())?.into_boxed_slice());
        }
        Ok(slot.as_deref().unwrap_or_default())
    }
}

impl ListQuery {
    /// Runs the query over `apps` (in id order; the world's change counter is `changes`) with the
    /// help of `index`, and returns the response body: the same bytes as serialising
    /// [`ListQuery::run`]'s page.
    pub fn run_indexed(
        &self,
        apps: &[App],
        changes: u64,
        index: &mut ListIndex,
    ) -> Result<Vec<u8>, serde_json::Error> {
        index.refresh(apps, changes);
        index.prepare(apps, self);
        let (page, total) = index.page(apps, self);
        let mut body = Vec::with_capacity(64 + page.len() * 160);
        // Writing to a `Vec` cannot fail.
        let _ = write!(
            body,
            "{{\"total\":{total},\"offset\":{},\"rows\":[",
            self.offset
        );
        for (n, position) in page.into_iter().enumerate() {
            if n > 0 {
                body.push(b',');
            }
            body.extend_from_slice(index.row(apps, position)?);
        }
        body.extend_from_slice(b"]}");
        Ok(body)
    }
}

/// The three-byte sequences of every application's search text → positions.
fn trigrams(apps: &[App]) -> HashMap<[u8; 3], Vec<u32>> {
    let mut trigrams: HashMap<[u8; 3], Vec<u32>> = HashMap::new();
    for (index, app) in apps.iter().enumerate() {
        let index = position(index);
        for window in app.search_text.as_bytes().windows(3) {
            // A term holding a line break is refused, so no query looks for these.
            if window.contains(&b'\n') {
                continue;
            }
            let list = trigrams
                .entry([window[0], window[1], window[2]])
                .or_default();
            if list.last() != Some(&index) {
                list.push(index);
            }
        }
    }
    trigrams
}

/// `column`'s ASCII-lower-case values → positions.
fn values(apps: &[App], column: Column) -> HashMap<Box<str>, Vec<u32>> {
    let mut values: HashMap<Box<str>, Vec<u32>> = HashMap::new();
    let mut scratch = String::new();
    for (index, app) in apps.iter().enumerate() {
        let key = column.text(app, &mut scratch).to_ascii_lowercase();
        values
            .entry(key.into_boxed_str())
            .or_default()
            .push(position(index));
    }
    values
}

/// `column`'s sort orders.
fn orders(apps: &[App], column: Column) -> Orders {
    let positions: Vec<u32> = (0..apps.len()).map(position).collect();
    let app = |index: u32| &apps[index as usize];
    let mut ascending = positions.clone();
    ascending.sort_by(|&a, &b| {
        column
            .compare(app(a), app(b))
            .then(app(a).index.cmp(&app(b).index))
    });
    let mut descending = positions;
    descending.sort_by(|&a, &b| {
        column
            .compare(app(b), app(a))
            .then(app(a).index.cmp(&app(b).index))
    });
    Orders {
        ascending,
        descending,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;
    use crate::world::{Command, World, WorldConfig};

    const QS: &[Option<&str>] = &[
        None,
        Some("pay"),
        Some("a"),
        Some("ap"),
        Some("app-00"),
        Some("checkout api"),
        Some("Payments-API"),
        Some("name:payments-api"),
        Some("region:EU-WEST-1"),
        Some("sync:outofsync"),
        Some("health:degraded"),
        Some("phase:running"),
        Some("rev:3"),
        Some("~^pay"),
        Some("zzz"),
        Some("\"ments-ap\""),
        Some("team:core"),
        Some("west 1"),
        Some("id:APP-0042"),
    ];
    const PARAMS: &[Option<(&str, &str)>] = &[
        None,
        Some(("sync", "Synced")),
        Some(("health", "HEALTHY")),
        Some(("region", "us-east-1")),
        Some(("phase", "")),
        Some(("rev", "2")),
    ];
    const SORTS: &[Option<&str>] = &[
        None,
        Some("id"),
        Some("-name"),
        Some("name"),
        Some("region"),
        Some("-sync"),
        Some("health"),
        Some("-rev"),
        Some("rev"),
        Some("phase"),
    ];
    const OFFSETS: &[&str] = &["0", "3", "40", "10000"];
    const LIMITS: &[&str] = &["0", "1", "7", "100", "2000"];

    /// The query numbered `n`: each part drawn from its list by a different digit of a mixed `n`.
    fn query(n: u64) -> Params {
        let mut x = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (n >> 7);
        let mut pick = |len: usize| {
            let chosen = (x % len as u64) as usize;
            x = (x / len as u64) ^ x.rotate_left(17);
            chosen
        };
        let mut pairs = Vec::new();
        if let Some(q) = QS[pick(QS.len())] {
            pairs.push(("q".to_owned(), q.to_owned()));
        }
        if let Some((name, value)) = PARAMS[pick(PARAMS.len())] {
            pairs.push((name.to_owned(), value.to_owned()));
        }
        if let Some(sort) = SORTS[pick(SORTS.len())] {
            pairs.push(("sort".to_owned(), sort.to_owned()));
        }
        if pick(3) == 0 {
            pairs.push(("desc".to_owned(), "1".to_owned()));
        }
        pairs.push(("offset".to_owned(), OFFSETS[pick(OFFSETS.len())].to_owned()));
        pairs.push(("limit".to_owned(), LIMITS[pick(LIMITS.len())].to_owned()));
        Params(pairs)
    }

    #[test]
    fn the_indexed_path_answers_every_query_as_the_plain_one_as_the_world_moves() {
        let start = 1_800_000_000_000;
        let mut world = World::new(WorldConfig {
            seed: 11,
            apps: 400,
            schedule: 500,
            start,
        });
        // One index for every state of the world: what a change makes stale must be rebuilt.
        let mut index = ListIndex::new();
        let mut compared = 0;
        for step in 0..8_i64 {
            for app in [3, 77, 150 + step as usize] {
                // A busy application refuses a command: that is fine, the world moves anyway.
                let _ = world.command(app, Command::QuickSync);
            }
            world.advance_to(start + step * 700);
            for n in 0..400 {
                let params = query(step.unsigned_abs() * 1_000 + n);
                let query = ListQuery::parse(&params).expect("every generated query is valid");
                let plain = serde_json::to_vec(&query.run(world.apps())).expect("JSON");
                let indexed = query
                    .run_indexed(world.apps(), world.changes(), &mut index)
                    .expect("JSON");
                assert!(
                    plain == indexed,
                    "step {step}, {:?}:\n{}\n---\n{}",
                    params.0,
                    String::from_utf8_lossy(&plain),
                    String::from_utf8_lossy(&indexed)
                );
                compared += usize::from(plain.len() > 40);
            }
        }
        assert!(compared > 500, "many queries have rows: {compared}");
    }
}
