# Reads an Iceberg table with pyiceberg (StaticTable over its newest metadata file) for
# tests/iceberg_*.rs. argv: metadata file URI, FileIO properties (JSON object), filters
# (JSON object name -> row filter text). Prints one JSON line per row (timestamps as
# microseconds, dates as ISO text), then one line per filter with the files its scan plans
# (count and paths) and the rows it returns, then the total file count.
import datetime
import json
import os
import sys

from pyiceberg.table import StaticTable

meta, props, filters = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
table = StaticTable.from_metadata(meta, properties=props)
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def plain(v):
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=datetime.timezone.utc)
        d = v - EPOCH
        return (d.days * 86400 + d.seconds) * 1_000_000 + d.microseconds
    if isinstance(v, datetime.date):
        return v.isoformat()
    return v


for row in table.scan().to_arrow().to_pylist():
    print(json.dumps({"row": {k: plain(v) for k, v in row.items()}}))
for name, text in filters.items():
    scan = table.scan(row_filter=text)
    paths = sorted(task.file.file_path for task in scan.plan_files())
    rows = scan.to_arrow().num_rows
    print(json.dumps({"filter": name, "planned": len(paths), "rows": rows, "paths": paths}))
print(json.dumps({"files": len(list(table.scan().plan_files())),
                  "snapshot": table.current_snapshot().snapshot_id,
                  "operation": str(table.current_snapshot().summary.operation.value)}))
sys.stdout.flush()
os._exit(0)
