//! Tests of the parquet.thrift structures: round trips, hand-written bytes, hostile input and
//! the footers of the parquet-testing corpus.

use super::*;
use crate::ErrorKind;
use std::fmt::Debug;

/// Encodes, decodes back, and checks that every strict prefix of the encoding is an error.
fn round_trip<T>(value: &T) -> Vec<u8>
where
    T: ThriftEncode + for<'a> ThriftDecode<'a> + PartialEq + Debug,
{
    let mut bytes = Vec::new();
    encode(value, &mut bytes);
    let (back, used) = decode::<T>(&bytes).unwrap();
    assert_eq!(&back, value);
    assert_eq!(used, bytes.len());
    // Trailing bytes are left alone.
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0xde, 0xad]);
    let (back, used) = decode::<T>(&longer).unwrap();
    assert_eq!(&back, value);
    assert_eq!(used, bytes.len());
    for cut in 0..bytes.len() {
        assert!(
            decode::<T>(&bytes[..cut]).is_err(),
            "{} bytes of {} decoded",
            cut,
            bytes.len()
        );
    }
    bytes
}

fn statistics() -> Statistics {
    Statistics {
        max: Some(vec![9, 0, 0, 0]),
        min: Some(vec![]),
        null_count: Some(3),
        distinct_count: Some(-7),
        max_value: Some(b"zz".to_vec()),
        min_value: Some(b"a".to_vec()),
        is_max_value_exact: Some(false),
        is_min_value_exact: Some(true),
        nan_count: Some(i64::MAX),
    }
}

fn size_statistics() -> SizeStatistics {
    SizeStatistics {
        unencoded_byte_array_data_bytes: Some(1234),
        repetition_level_histogram: Some(vec![1, 2, 3]),
        definition_level_histogram: Some((0..40).collect()),
    }
}

fn geospatial_statistics() -> GeospatialStatistics {
    GeospatialStatistics {
        bbox: Some(BoundingBox {
            xmin: -180.0,
            xmax: 180.0,
            ymin: -90.5,
            ymax: 90.25,
            zmin: Some(-1.0),
            zmax: Some(f64::MAX),
            mmin: None,
            mmax: Some(0.0),
        }),
        geospatial_types: Some(vec![1, 2, 1003]),
    }
}

fn all_logical_types() -> Vec<LogicalType> {
    vec![
        LogicalType::String,
        LogicalType::Map,
        LogicalType::List,
        LogicalType::Enum,
        LogicalType::Decimal {
            scale: 2,
            precision: 38,
        },
        LogicalType::Date,
        LogicalType::Time {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Millis,
        },
        LogicalType::Timestamp {
            is_adjusted_to_utc: false,
            unit: TimeUnit::Nanos,
        },
        LogicalType::Timestamp {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Micros,
        },
        LogicalType::Integer {
            bit_width: -8,
            is_signed: false,
        },
        LogicalType::Null,
        LogicalType::Json,
        LogicalType::Bson,
        LogicalType::Uuid,
        LogicalType::Float16,
        LogicalType::Variant {
            specification_version: Some(1),
        },
        LogicalType::Variant {
            specification_version: None,
        },
        LogicalType::Geometry {
            crs: Some("EPSG:4326".into()),
        },
        LogicalType::Geometry { crs: None },
        LogicalType::Geography {
            crs: Some("OGC:CRS84".into()),
            algorithm: Some(EdgeInterpolationAlgorithm::Karney),
        },
        LogicalType::Geography {
            crs: None,
            algorithm: None,
        },
        LogicalType::Vector,
        LogicalType::Unknown(42),
    ]
}

fn schema() -> Vec<SchemaElement> {
    let mut schema = vec![SchemaElement {
        name: "root".into(),
        num_children: Some(all_logical_types().len() as i32 + 1),
        ..Default::default()
    }];
    for (i, lt) in all_logical_types().into_iter().enumerate() {
        schema.push(SchemaElement {
            r#type: Some(Type::ByteArray),
            repetition_type: Some(FieldRepetitionType::Optional),
            name: format!("c{i}"),
            logical_type: Some(lt),
            field_id: Some(i as i32),
            ..Default::default()
        });
    }
    schema.push(SchemaElement {
        r#type: Some(Type::Unknown(99)),
        type_length: Some(16),
        repetition_type: Some(FieldRepetitionType::Vector),
        name: "émoji ✓".into(),
        num_children: None,
        converted_type: Some(ConvertedType::Decimal),
        scale: Some(3),
        precision: Some(9),
        field_id: Some(-1),
        logical_type: None,
        vector_length: Some(128),
    });
    schema
}

fn column_meta_data() -> ColumnMetaData {
    ColumnMetaData {
        r#type: Type::Int64,
        encodings: vec![Encoding::Plain, Encoding::Rle, Encoding::Unknown(77)],
        path_in_schema: vec!["a".into(), "list".into(), "element".into()],
        codec: CompressionCodec::Zstd,
        num_values: 1 << 40,
        total_uncompressed_size: 5000,
        total_compressed_size: 4000,
        key_value_metadata: Some(vec![key_value()]),
        data_page_offset: 4,
        index_page_offset: Some(5),
        dictionary_page_offset: Some(6),
        statistics: Some(statistics()),
        encoding_stats: Some(vec![
            PageEncodingStats {
                page_type: PageType::DictionaryPage,
                encoding: Encoding::Plain,
                count: 1,
            },
            PageEncodingStats {
                page_type: PageType::DataPage,
                encoding: Encoding::RleDictionary,
                count: 20,
            },
        ]),
        bloom_filter_offset: Some(9000),
        bloom_filter_length: Some(1024),
        size_statistics: Some(size_statistics()),
        geospatial_statistics: Some(geospatial_statistics()),
    }
}

fn key_value() -> KeyValue {
    KeyValue {
        key: "ARROW:schema".into(),
        value: Some("x".repeat(300)),
    }
}

fn column_chunk() -> ColumnChunk {
    ColumnChunk {
        file_path: Some("other.parquet".into()),
        file_offset: 17,
        meta_data: Some(column_meta_data()),
        offset_index_offset: Some(100),
        offset_index_length: Some(20),
        column_index_offset: Some(120),
        column_index_length: Some(30),
        crypto_metadata: Some(ColumnCryptoMetaData::EncryptionWithColumnKey(
            EncryptionWithColumnKey {
                path_in_schema: vec!["a".into()],
                key_metadata: Some(b"kc1".to_vec()),
            },
        )),
        encrypted_column_metadata: Some(vec![1, 2, 3, 4]),
    }
}

fn row_group() -> RowGroup {
    RowGroup {
        columns: vec![
            column_chunk(),
            ColumnChunk {
                crypto_metadata: Some(ColumnCryptoMetaData::EncryptionWithFooterKey),
                ..Default::default()
            },
        ],
        total_byte_size: 123_456,
        num_rows: 1000,
        sorting_columns: Some(vec![SortingColumn {
            column_idx: 1,
            descending: true,
            nulls_first: false,
        }]),
        file_offset: Some(4),
        total_compressed_size: Some(99_999),
        ordinal: Some(-3),
    }
}

fn file_metadata() -> FileMetaData {
    FileMetaData {
        version: 2,
        schema: schema(),
        num_rows: 1000,
        row_groups: vec![row_group(), RowGroup::default()],
        key_value_metadata: Some(vec![
            key_value(),
            KeyValue {
                key: String::new(),
                value: None,
            },
        ]),
        created_by: Some("parquet-serde version 0.1.0".into()),
        column_orders: Some(vec![
            ColumnOrder::TypeDefinedOrder,
            ColumnOrder::Ieee754TotalOrder,
            ColumnOrder::Int96TimestampOrder,
            ColumnOrder::Unknown(9),
        ]),
        encryption_algorithm: Some(EncryptionAlgorithm::AesGcmV1(AesGcmV1 {
            aad_prefix: Some(b"tester".to_vec()),
            aad_file_unique: Some(vec![0; 8]),
            supply_aad_prefix: Some(true),
        })),
        footer_signing_key_metadata: Some(b"kf".to_vec()),
    }
}

#[test]
fn round_trip_footer_structs() {
    round_trip(&file_metadata());
    round_trip(&FileMetaData::default());
    round_trip(&row_group());
    round_trip(&column_chunk());
    round_trip(&ColumnChunk::default());
    round_trip(&column_meta_data());
    round_trip(&key_value());
    round_trip(&KeyValue::default());
    round_trip(&SortingColumn {
        column_idx: i32::MIN,
        descending: false,
        nulls_first: true,
    });
    round_trip(&PageEncodingStats {
        page_type: PageType::Unknown(-5),
        encoding: Encoding::ByteStreamSplit,
        count: 0,
    });
    for order in [
        ColumnOrder::TypeDefinedOrder,
        ColumnOrder::Ieee754TotalOrder,
        ColumnOrder::Int96TimestampOrder,
        ColumnOrder::Unknown(300),
    ] {
        round_trip(&order);
    }
}

#[test]
fn round_trip_schema_and_logical_types() {
    for element in schema() {
        round_trip(&element);
    }
    for lt in all_logical_types() {
        round_trip(&lt);
    }
    for unit in [
        TimeUnit::Millis,
        TimeUnit::Micros,
        TimeUnit::Nanos,
        TimeUnit::Unknown(4),
    ] {
        round_trip(&unit);
    }
    round_trip(&DecimalType {
        scale: 0,
        precision: 1,
    });
    round_trip(&TimeType {
        is_adjusted_to_utc: true,
        unit: TimeUnit::Micros,
    });
    round_trip(&TimestampType {
        is_adjusted_to_utc: false,
        unit: TimeUnit::Millis,
    });
    round_trip(&IntType {
        bit_width: 64,
        is_signed: true,
    });
    round_trip(&VariantType {
        specification_version: Some(1),
    });
    round_trip(&GeometryType {
        crs: Some("srid:4326".into()),
    });
    round_trip(&GeographyType {
        crs: Some("OGC:CRS84".into()),
        algorithm: Some(EdgeInterpolationAlgorithm::Unknown(12)),
    });
}

#[test]
fn round_trip_statistics() {
    round_trip(&statistics());
    round_trip(&Statistics::default());
    round_trip(&size_statistics());
    round_trip(&geospatial_statistics());
    round_trip(&BoundingBox::default());
}

#[test]
fn round_trip_pages() {
    round_trip(&PageHeader {
        r#type: PageType::DataPage,
        uncompressed_page_size: 100,
        compressed_page_size: 50,
        crc: Some(-123_456_789),
        data_page_header: Some(DataPageHeader {
            num_values: 10,
            encoding: Encoding::Plain,
            definition_level_encoding: Encoding::Rle,
            repetition_level_encoding: Encoding::BitPacked,
            statistics: Some(statistics()),
        }),
        index_page_header: Some(IndexPageHeader {}),
        dictionary_page_header: Some(DictionaryPageHeader {
            num_values: 3,
            encoding: Encoding::PlainDictionary,
            is_sorted: Some(true),
        }),
        data_page_header_v2: Some(DataPageHeaderV2 {
            num_values: 10,
            num_nulls: 2,
            num_rows: 5,
            encoding: Encoding::DeltaByteArray,
            definition_levels_byte_length: 4,
            repetition_levels_byte_length: 0,
            is_compressed: Some(false),
            statistics: None,
        }),
    });
    round_trip(&IndexPageHeader {});
}

#[test]
fn round_trip_page_index_and_bloom_filter() {
    round_trip(&ColumnIndex {
        null_pages: vec![false, true, false],
        min_values: vec![b"a".to_vec(), vec![], b"m".to_vec()],
        max_values: vec![b"f".to_vec(), vec![], b"z".to_vec()],
        boundary_order: BoundaryOrder::Ascending,
        null_counts: Some(vec![0, 10, 1]),
        repetition_level_histograms: Some(vec![1, 2, 3, 4, 5, 6]),
        definition_level_histograms: Some(vec![7, 8, 9, 10, 11, 12]),
        nan_counts: Some(vec![0, 0, 0]),
    });
    round_trip(&OffsetIndex {
        page_locations: (0..20)
            .map(|i| PageLocation {
                offset: 4 + i * 1000,
                compressed_page_size: 1000,
                first_row_index: i * 100,
            })
            .collect(),
        unencoded_byte_array_data_bytes: Some(vec![5; 20]),
    });
    round_trip(&BloomFilterHeader {
        num_bytes: 4096,
        algorithm: BloomFilterAlgorithm::Block,
        hash: BloomFilterHash::XxHash,
        compression: BloomFilterCompression::Uncompressed,
    });
    round_trip(&BloomFilterHeader {
        num_bytes: 32,
        algorithm: BloomFilterAlgorithm::Unknown(2),
        hash: BloomFilterHash::Unknown(3),
        compression: BloomFilterCompression::Unknown(4),
    });
}

#[test]
fn round_trip_encryption() {
    let gcm = AesGcmV1 {
        aad_prefix: Some(b"p".to_vec()),
        aad_file_unique: Some(vec![1; 8]),
        supply_aad_prefix: Some(false),
    };
    let ctr = AesGcmCtrV1 {
        aad_prefix: None,
        aad_file_unique: Some(vec![2; 8]),
        supply_aad_prefix: Some(true),
    };
    round_trip(&gcm);
    round_trip(&ctr);
    round_trip(&EncryptionAlgorithm::AesGcmV1(gcm));
    round_trip(&EncryptionAlgorithm::AesGcmCtrV1(ctr.clone()));
    round_trip(&FileCryptoMetaData {
        encryption_algorithm: EncryptionAlgorithm::AesGcmCtrV1(ctr),
        key_metadata: Some(b"kf".to_vec()),
    });
    round_trip(&EncryptionWithColumnKey {
        path_in_schema: vec!["a".into(), "b".into()],
        key_metadata: None,
    });
    round_trip(&ColumnCryptoMetaData::EncryptionWithFooterKey);
    round_trip(&ColumnCryptoMetaData::Unknown(7));
}

#[test]
fn page_header_bytes() {
    // type=DATA_PAGE, uncompressed=100, compressed=50, data_page_header{10, PLAIN, RLE, RLE},
    // then two bytes of page data.
    let bytes = [
        0x15, 0x00, 0x15, 0xc8, 0x01, 0x15, 0x64, 0x2c, 0x15, 0x14, 0x15, 0x00, 0x15, 0x06, 0x15,
        0x06, 0x00, 0x00, 0xab, 0xcd,
    ];
    let (h, used) = decode::<PageHeader>(&bytes).unwrap();
    assert_eq!(used, 18);
    assert_eq!(
        h,
        PageHeader {
            r#type: PageType::DataPage,
            uncompressed_page_size: 100,
            compressed_page_size: 50,
            crc: None,
            data_page_header: Some(DataPageHeader {
                num_values: 10,
                encoding: Encoding::Plain,
                definition_level_encoding: Encoding::Rle,
                repetition_level_encoding: Encoding::Rle,
                statistics: None,
            }),
            index_page_header: None,
            dictionary_page_header: None,
            data_page_header_v2: None,
        }
    );
    let mut out = Vec::new();
    encode(&h, &mut out);
    assert_eq!(out, bytes[..18]);
}

#[test]
fn bool_fields_and_long_form_ids() {
    // SortingColumn{column_idx: 3, descending: true (nibble 1), nulls_first: false (nibble 2)}
    let bytes = [0x15, 0x06, 0x11, 0x12, 0x00];
    let (s, _) = decode::<SortingColumn>(&bytes).unwrap();
    assert_eq!(
        s,
        SortingColumn {
            column_idx: 3,
            descending: true,
            nulls_first: false
        }
    );
    let mut out = Vec::new();
    encode(&s, &mut out);
    assert_eq!(out, bytes);

    // The same with every id in long form (type nibble, then zigzag i16 id), out of order.
    let long = [0x02, 0x06, 0x01, 0x04, 0x05, 0x02, 0x06, 0x00];
    assert_eq!(decode::<SortingColumn>(&long).unwrap().0, s);

    // DataPageHeaderV2.is_compressed defaults to true when absent.
    let mut v2 = DataPageHeaderV2 {
        num_values: 1,
        num_nulls: 0,
        num_rows: 1,
        encoding: Encoding::Plain,
        definition_levels_byte_length: 0,
        repetition_levels_byte_length: 0,
        is_compressed: None,
        statistics: None,
    };
    assert!(v2.values_compressed());
    v2.is_compressed = Some(false);
    assert!(!v2.values_compressed());
}

#[test]
fn unknown_fields_of_every_type_are_skipped() {
    let mut bytes = vec![0x18, 0x01, b'k']; // 1: key = "k"
    bytes.extend_from_slice(&[0x21]); // 3: bool true
    bytes.extend_from_slice(&[0x12]); // 4: bool false
    bytes.extend_from_slice(&[0x13, 0xff]); // 5: i8
    bytes.extend_from_slice(&[0x14, 0x03]); // 6: i16
    bytes.extend_from_slice(&[0x15, 0x80, 0x01]); // 7: i32
    bytes.extend_from_slice(&[0x16, 0xff, 0xff, 0xff, 0xff, 0x0f]); // 8: i64
    bytes.push(0x17); // 9: double
    bytes.extend_from_slice(&2.5f64.to_le_bytes());
    bytes.extend_from_slice(&[0x18, 0x03, b'x', b'y', b'z']); // 10: binary
    bytes.extend_from_slice(&[0x19, 0x2c, 0x15, 0x02, 0x00, 0x00]); // 11: list<struct>, 2 elems
    bytes.extend_from_slice(&[0x1a, 0x31, 0x01, 0x02, 0x01]); // 12: set<bool>
    bytes.extend_from_slice(&[0x1b, 0x01, 0x89, 0x01, b'k', 0x15, 0x02]); // 13: map<binary,list<i32>>
    bytes.extend_from_slice(&[0x0b, 0x40, 0x00]); // 32 (long form): empty map
    bytes.extend_from_slice(&[0x1c, 0x1c, 0x11, 0x00, 0x00]); // 33: struct{struct{bool}}
    bytes.extend_from_slice(&[0x0d, 0x44]); // 34 (long form): uuid
    bytes.extend_from_slice(&[0xab; 16]);
    bytes.extend_from_slice(&[0x08, 0x04, 0x01, b'v']); // 2 (long form): value = "v"
    bytes.extend_from_slice(&[0x08, 0x7e, 0x00]); // 63: binary ""
    bytes.push(0x00);
    let (kv, used) = decode::<KeyValue>(&bytes).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!(
        kv,
        KeyValue {
            key: "k".into(),
            value: Some("v".into())
        }
    );
    for cut in 0..bytes.len() {
        assert!(decode::<KeyValue>(&bytes[..cut]).is_err());
    }
}

#[test]
fn known_field_with_wrong_type_is_skipped() {
    // key written as an i32: skipped, so the required field is missing.
    let err = decode::<KeyValue>(&[0x15, 0x02, 0x00]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Corrupt);
    assert!(err.message().contains("KeyValue.key"), "{err}");
}

#[test]
fn missing_required_fields_are_named() {
    let err = decode::<PageHeader>(&[0x15, 0x00, 0x00]).unwrap_err();
    assert!(
        err.message().contains("PageHeader.uncompressed_page_size"),
        "{err}"
    );
    let err = decode::<ColumnMetaData>(&[0x00]).unwrap_err();
    assert!(err.message().contains("ColumnMetaData.type"), "{err}");
    let err = decode::<SchemaElement>(&[0x15, 0x02, 0x00]).unwrap_err();
    assert!(err.message().contains("SchemaElement.name"), "{err}");
    // ColumnChunk.file_offset is required with a default of 0.
    let (cc, _) = decode::<ColumnChunk>(&[0x00]).unwrap();
    assert_eq!(cc.file_offset, 0);
}

#[test]
fn unknown_enum_values_are_kept() {
    // SchemaElement{type: 42, name: "x", converted_type: 99}
    let bytes = [0x15, 0x54, 0x38, 0x01, b'x', 0x25, 0xc6, 0x01, 0x00];
    let (e, _) = decode::<SchemaElement>(&bytes).unwrap();
    assert_eq!(e.r#type, Some(Type::Unknown(42)));
    assert_eq!(e.converted_type, Some(ConvertedType::Unknown(99)));
    assert_eq!(e.name, "x");
    let mut out = Vec::new();
    encode(&e, &mut out);
    assert_eq!(out, bytes);
}

#[test]
fn unknown_union_members() {
    // SchemaElement{name: "u", logicalType: {20 (long form): struct{1: i32 7}}}
    let bytes = [
        0x48, 0x01, b'u', 0x6c, 0x0c, 0x28, 0x15, 0x0e, 0x00, 0x00, 0x00,
    ];
    let (e, used) = decode::<SchemaElement>(&bytes).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!(e.logical_type, Some(LogicalType::Unknown(20)));
    // A known empty member with fields added by a newer writer still decodes.
    let string_with_field = [0x1c, 0x15, 0x02, 0x00, 0x00];
    assert_eq!(
        decode::<LogicalType>(&string_with_field).unwrap().0,
        LogicalType::String
    );
    // TimeUnit member 4 is unknown.
    assert_eq!(
        decode::<TimeUnit>(&[0x4c, 0x00, 0x00]).unwrap().0,
        TimeUnit::Unknown(4)
    );
    // An unknown member of any wire type is skipped.
    assert_eq!(
        decode::<ColumnOrder>(&[0x08, 0x10, 0x02, b'h', b'i', 0x00])
            .unwrap()
            .0,
        ColumnOrder::Unknown(8)
    );
}

#[test]
fn malformed_unions() {
    // No member.
    assert!(decode::<LogicalType>(&[0x00]).is_err());
    assert!(decode::<ColumnOrder>(&[0x00]).is_err());
    // Two members.
    assert!(decode::<LogicalType>(&[0x1c, 0x00, 0x1c, 0x00, 0x00]).is_err());
    assert!(decode::<BloomFilterHash>(&[0x1c, 0x00, 0x1c, 0x00, 0x00]).is_err());
    // A known member that is not a struct.
    assert!(decode::<LogicalType>(&[0x15, 0x00, 0x00]).is_err());
    assert!(decode::<EncryptionAlgorithm>(&[0x15, 0x00, 0x00]).is_err());
    // DECIMAL without precision.
    let err = decode::<LogicalType>(&[0x5c, 0x15, 0x04, 0x00, 0x00]).unwrap_err();
    assert!(err.message().contains("DecimalType.precision"), "{err}");
}

#[test]
fn every_truncation_of_file_metadata_fails() {
    let mut bytes = Vec::new();
    encode(&file_metadata(), &mut bytes);
    assert!(bytes.len() > 1000);
    for cut in 0..bytes.len() {
        let err = decode::<FileMetaData>(&bytes[..cut]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Corrupt);
        assert!(err.location().offset.unwrap() <= cut as u64);
    }
}

#[test]
fn depth_bomb_fails_fast() {
    // FileMetaData field 10 (unknown) holding 100_000 nested structs.
    let mut bytes = vec![0x15, 0x02];
    bytes.extend_from_slice(&[0x9c]); // field 10: struct
    bytes.resize(bytes.len() + 100_000, 0x1c);
    let err = decode::<FileMetaData>(&bytes).unwrap_err();
    assert!(err.message().contains("nesting"), "{err}");
    // Nested lists.
    let mut bytes = vec![0x89]; // field 8: list (unknown to KeyValue)
    bytes.resize(bytes.len() + 100_000, 0x19);
    let err = decode::<KeyValue>(&bytes).unwrap_err();
    assert!(err.message().contains("nesting"), "{err}");
    // The depth limit is configurable.
    // KeyValue{5: struct{1: struct{1: struct{}}}, 1 (long form): "k"}
    let nested = [
        0x5c, 0x1c, 0x1c, 0x00, 0x00, 0x00, 0x08, 0x02, 0x01, b'k', 0x00,
    ];
    let limits = DecodeLimits {
        max_depth: 4,
        ..DecodeLimits::default()
    };
    assert!(decode_with_limits::<KeyValue>(&nested, limits).is_ok());
    let limits = DecodeLimits {
        max_depth: 3,
        ..DecodeLimits::default()
    };
    assert!(decode_with_limits::<KeyValue>(&nested, limits).is_err());
}

#[test]
fn huge_list_counts_fail_fast() {
    // FileMetaData{version: 1, schema: list<struct> of 2^31 - 1 elements} with a few bytes.
    let bytes = [0x15, 0x02, 0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00];
    let err = decode::<FileMetaData>(&bytes).unwrap_err();
    assert!(err.message().contains("cannot fit"), "{err}");
    // 2^31 exceeds i32.
    let bytes = [0x15, 0x02, 0x19, 0xfc, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00];
    assert!(decode::<FileMetaData>(&bytes).is_err());
    // 2^31 - 1 i64 elements of an unknown field.
    let bytes = [0xf9, 0xf6, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00];
    assert!(decode::<KeyValue>(&bytes).is_err());
    // A million elements claimed in a million bytes of empty structs: allowed by size, fails
    // on the first element (SchemaElement.name missing) without reserving much.
    let mut bytes = vec![0x15, 0x02, 0x19, 0xfc, 0xc0, 0x84, 0x3d];
    bytes.resize(bytes.len() + 1_000_000, 0x00);
    let err = decode::<FileMetaData>(&bytes).unwrap_err();
    assert!(err.message().contains("SchemaElement.name"), "{err}");
    // A map count that does not fit.
    let bytes = [0xfb, 0xff, 0xff, 0xff, 0xff, 0x07, 0x55, 0x00];
    assert!(decode::<KeyValue>(&bytes).is_err());
}

#[test]
fn string_limit_applies() {
    let kv = key_value();
    let mut bytes = Vec::new();
    encode(&kv, &mut bytes);
    let limits = DecodeLimits {
        max_string_size: 299,
        ..DecodeLimits::default()
    };
    assert!(decode_with_limits::<KeyValue>(&bytes, limits).is_err());
    let limits = DecodeLimits {
        max_string_size: 300,
        ..DecodeLimits::default()
    };
    assert_eq!(
        decode_with_limits::<KeyValue>(&bytes, limits).unwrap().0,
        kv
    );
}

#[test]
fn invalid_utf8_in_strings_is_replaced() {
    let bytes = [0x18, 0x02, 0xff, b'a', 0x00];
    let (kv, _) = decode::<KeyValue>(&bytes).unwrap();
    assert_eq!(kv.key, "\u{fffd}a");
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn decode_all(bytes: &[u8]) {
        let _ = decode::<FileMetaData>(bytes);
        let _ = decode::<PageHeader>(bytes);
        let _ = decode::<ColumnIndex>(bytes);
        let _ = decode::<OffsetIndex>(bytes);
        let _ = decode::<BloomFilterHeader>(bytes);
        let _ = decode::<FileCryptoMetaData>(bytes);
        let _ = decode::<LogicalType>(bytes);
        let _ = decode::<ColumnChunk>(bytes);
        let mut r = CompactReader::new(bytes);
        let _ = r.skip(WireType::Struct);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            decode_all(&bytes);
        }

        #[test]
        fn mutated_footers_never_panic(
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)
        ) {
            let mut bytes = Vec::new();
            encode(&file_metadata(), &mut bytes);
            for (at, b) in edits {
                let i = at.index(bytes.len());
                bytes[i] = b;
            }
            decode_all(&bytes);
            // Whatever decodes must round trip.
            if let Ok((fmd, _)) = decode::<FileMetaData>(&bytes) {
                let mut again = Vec::new();
                encode(&fmd, &mut again);
                let (back, _) = decode::<FileMetaData>(&again).unwrap();
                // NaN doubles in bounding boxes do not compare equal; compare encodings.
                let mut third = Vec::new();
                encode(&back, &mut third);
                prop_assert_eq!(again, third);
            }
        }
    }
}

mod corpus {
    use super::*;

    use crate::test_support::{corpus_file, corpus_files};

    enum Footer<'a> {
        Plain(&'a [u8]),
        Encrypted(&'a [u8]),
    }

    fn footer(bytes: &[u8]) -> Option<Footer<'_>> {
        if bytes.len() < 12 {
            return None;
        }
        let tail = &bytes[bytes.len() - 8..];
        let len = u32::from_le_bytes(tail[..4].try_into().unwrap()) as usize;
        let end = bytes.len() - 8;
        let start = end.checked_sub(len)?;
        match &tail[4..] {
            b"PAR1" => Some(Footer::Plain(&bytes[start..end])),
            b"PARE" => Some(Footer::Encrypted(&bytes[start..end])),
            _ => None,
        }
    }

    fn check_footer(name: &str, footer: &[u8]) -> FileMetaData {
        let (fmd, used) = decode::<FileMetaData>(footer)
            .unwrap_or_else(|e| panic!("{name}: footer does not decode: {e}"));
        // A signed plaintext footer is followed by a 12-byte nonce and a 16-byte GCM tag.
        let signature = if fmd.encryption_algorithm.is_some() {
            28
        } else {
            0
        };
        assert_eq!(
            used + signature,
            footer.len(),
            "{name}: footer not fully consumed"
        );
        let mut again = Vec::new();
        encode(&fmd, &mut again);
        let (back, used) = decode::<FileMetaData>(&again).unwrap();
        assert_eq!(used, again.len());
        assert_eq!(back, fmd, "{name}: re-encoded footer differs");
        fmd
    }

    #[test]
    fn every_corpus_footer_round_trips() {
        let mut plain = 0;
        let mut encrypted = 0;
        let mut identical = 0;
        for d in ["data", "data/geospatial", "data/aes256"] {
            for path in corpus_files(d) {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if !(name.ends_with(".parquet") || name.ends_with(".parquet.encrypted")) {
                    continue;
                }
                let bytes = std::fs::read(&path).unwrap();
                match footer(&bytes) {
                    Some(Footer::Plain(f)) => {
                        let fmd = check_footer(&name, f);
                        assert!(!fmd.schema.is_empty(), "{name}");
                        let mut again = Vec::new();
                        encode(&fmd, &mut again);
                        if again == f {
                            identical += 1;
                        } else {
                            eprintln!("re-encoded differently: {name}");
                        }
                        plain += 1;
                    }
                    Some(Footer::Encrypted(f)) => {
                        // Encrypted footer: FileCryptoMetaData, then the encrypted FileMetaData.
                        let (fcm, used) = decode::<FileCryptoMetaData>(f)
                            .unwrap_or_else(|e| panic!("{name}: {e}"));
                        assert!(used < f.len(), "{name}");
                        assert!(
                            !matches!(fcm.encryption_algorithm, EncryptionAlgorithm::Unknown(_)),
                            "{name}"
                        );
                        encrypted += 1;
                    }
                    None => panic!("{name}: no footer"),
                }
            }
        }
        eprintln!(
            "corpus: {plain} plaintext footers ({identical} re-encoded byte for byte), \
             {encrypted} encrypted"
        );
        assert!(plain >= 60, "only {plain} footers found");
        assert!(encrypted >= 5, "only {encrypted} encrypted footers found");
    }

    #[test]
    fn bad_data_footers_do_not_panic() {
        for path in corpus_files("bad_data") {
            let bytes = std::fs::read(&path).unwrap();
            if let Some(Footer::Plain(f)) = footer(&bytes) {
                if let Ok((fmd, _)) = decode::<FileMetaData>(f) {
                    let mut again = Vec::new();
                    encode(&fmd, &mut again);
                    assert_eq!(decode::<FileMetaData>(&again).unwrap().0, fmd);
                }
            }
        }
    }

    /// Encodes and decodes again (no truncation checks: these indexes are large).
    fn reencode<T>(value: &T) -> T
    where
        T: ThriftEncode + for<'a> ThriftDecode<'a>,
    {
        let mut bytes = Vec::new();
        encode(value, &mut bytes);
        decode::<T>(&bytes).unwrap().0
    }

    fn read_footer(name: &str) -> FileMetaData {
        let bytes = corpus_file(&format!("data/{name}"));
        match footer(&bytes) {
            Some(Footer::Plain(f)) => check_footer(name, f),
            _ => panic!("{name}: no plaintext footer"),
        }
    }

    #[test]
    fn alltypes_plain() {
        let fmd = read_footer("alltypes_plain.parquet");
        assert_eq!(fmd.num_rows, 8);
        // The root and 11 columns.
        assert_eq!(fmd.schema.len(), 12);
        assert_eq!(fmd.schema[0].num_children, Some(11));
        assert_eq!(fmd.schema[1].name, "id");
        assert_eq!(fmd.schema[1].r#type, Some(Type::Int32));
        assert_eq!(
            fmd.schema[1].repetition_type,
            Some(FieldRepetitionType::Optional)
        );
        assert_eq!(fmd.row_groups.len(), 1);
        let rg = &fmd.row_groups[0];
        assert_eq!(rg.num_rows, 8);
        assert_eq!(rg.columns.len(), 11);
        let md = rg.columns[0].meta_data.as_ref().unwrap();
        assert_eq!(md.path_in_schema, ["id"]);
        assert_eq!(md.num_values, 8);
        assert_eq!(md.codec, CompressionCodec::Uncompressed);
        let last = fmd.schema.last().unwrap();
        assert_eq!(last.name, "timestamp_col");
        assert_eq!(last.r#type, Some(Type::Int96));
    }

    #[test]
    fn unknown_logical_type() {
        let fmd = read_footer("unknown-logical-type.parquet");
        let unknown: Vec<_> = fmd
            .schema
            .iter()
            .filter(|e| matches!(e.logical_type, Some(LogicalType::Unknown(_))))
            .collect();
        assert_eq!(unknown.len(), 1, "{:?}", fmd.schema);
        assert!(fmd
            .schema
            .iter()
            .any(|e| e.logical_type == Some(LogicalType::String)));
    }

    #[test]
    fn page_index_and_bloom_filter_files() {
        // Bloom filter header followed by its bitset.
        let bytes = corpus_file("data/bloom_filter.xxhash.bin");
        let (h, used) = decode::<BloomFilterHeader>(&bytes).unwrap();
        assert_eq!(h.algorithm, BloomFilterAlgorithm::Block);
        assert_eq!(h.hash, BloomFilterHash::XxHash);
        assert_eq!(h.compression, BloomFilterCompression::Uncompressed);
        assert_eq!(used + h.num_bytes as usize, bytes.len());

        // Column and offset indexes of alltypes_tiny_pages.parquet.
        let bytes = corpus_file("data/alltypes_tiny_pages.parquet");
        let Some(Footer::Plain(f)) = footer(&bytes) else {
            panic!("no footer")
        };
        let fmd = check_footer("alltypes_tiny_pages.parquet", f);
        let mut checked = 0;
        for cc in &fmd.row_groups[0].columns {
            let (Some(off), Some(len)) = (cc.offset_index_offset, cc.offset_index_length) else {
                continue;
            };
            let slice = &bytes[off as usize..off as usize + len as usize];
            let (oi, used) = decode::<OffsetIndex>(slice).unwrap();
            assert_eq!(used, slice.len());
            assert!(!oi.page_locations.is_empty());
            assert_eq!(oi.page_locations[0].first_row_index, 0);
            if let (Some(off), Some(len)) = (cc.column_index_offset, cc.column_index_length) {
                let slice = &bytes[off as usize..off as usize + len as usize];
                let (ci, used) = decode::<ColumnIndex>(slice).unwrap();
                assert_eq!(used, slice.len());
                assert_eq!(ci.null_pages.len(), oi.page_locations.len());
                assert_eq!(ci.min_values.len(), oi.page_locations.len());
                assert_eq!(reencode(&ci), ci);
            }
            assert_eq!(reencode(&oi), oi);
            checked += 1;
        }
        assert!(checked > 0);

        // The first page header of the first column chunk.
        let md = fmd.row_groups[0].columns[0].meta_data.as_ref().unwrap();
        let start = md
            .dictionary_page_offset
            .filter(|&o| o > 0)
            .unwrap_or(md.data_page_offset) as usize;
        let (ph, used) = decode::<PageHeader>(&bytes[start..]).unwrap();
        assert!(used < 100);
        assert!(ph.compressed_page_size > 0);
    }
}
