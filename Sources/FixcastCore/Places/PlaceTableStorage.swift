public import FixcastTables

/// The port through which the tables (the place table, the alert-area table, the base map) read their
/// images: the bytes, who keeps them alive, and what to do before a long read. The formats are the
/// FixcastTables leaf's (`TableStorage`); fixcast passes the adapters' read-only mapping
/// (`MappedPlaceTableFile`), tests an array in memory (`InMemoryPlaceTableStorage`).
public typealias PlaceTableStorage = TableStorage

/// An image held in memory (tests, `fixcast-bench --compile`).
public typealias InMemoryPlaceTableStorage = InMemoryTableStorage
