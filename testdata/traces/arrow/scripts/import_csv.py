import csv
import io

import arrow

DATA = """id,created
1,05/01/2023
2,05/02/2023
"""

for row in csv.DictReader(io.StringIO(DATA)):
    created = arrow.get(row["created"])
    print(row["id"], created)
