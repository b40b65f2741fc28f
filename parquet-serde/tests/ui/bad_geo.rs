#[derive(parquet_serde::ParquetSchema)]
struct Row {
    #[parquet(geography(algorithm = "great_circle"))]
    a: Vec<u8>,
    #[parquet(geometry(algorithm = "spherical"))]
    b: Vec<u8>,
    #[parquet(geometry(crs = ""))]
    c: Vec<u8>,
    #[parquet(geometry(srid = 4326))]
    d: Vec<u8>,
    #[parquet(geometry = "OGC:CRS84")]
    e: Vec<u8>,
    #[parquet(geography(crs = "a", crs = "b"))]
    f: Vec<u8>,
    #[parquet(geometry, geography)]
    g: Vec<u8>,
    #[parquet(geometry, json)]
    h: String,
}

fn main() {}
