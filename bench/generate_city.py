"""Generates a synthetic city of N streets as a GeoJSON FeatureCollection in WGS84.

The density is constant (one street per 150 m x 150 m cell, about 120 m long with a bend), so a
city of 100 000 streets is larger than one of 1 000 and a radius query finds about as many
streets in both: the benchmark then compares the cost of the index, not of bigger answers.
Names are Czech-like with diacritics, drawn from a small vocabulary, so `q` prefixes match
realistic numbers of streets.

Usage: python3 generate_city.py N OUT.geojson   (also writes OUT.points.txt and OUT.prefixes.txt)
"""
import json
import math
import random
import sys

n = int(sys.argv[1])
out = sys.argv[2]
rnd = random.Random(20261121)
side = math.ceil(math.sqrt(n))
cell_m = 150.0
lat0, lon0 = 49.95, 14.25
m_per_deg_lat = 111_250.0
m_per_deg_lon = 111_320.0 * math.cos(math.radians(lat0 + side * cell_m / m_per_deg_lat / 2))
first = ["Nová", "Stará", "Dlouhá", "Krátká", "Horní", "Dolní", "Zelená", "Polní", "Lesní", "Luční",
         "Školní", "Nádražní", "Říční", "Jarní", "Letní", "Zimní", "Široká", "Úzká", "Tichá", "Slunná"]
second = ["ulice", "cesta", "třída", "náměstí", "nábřeží", "stezka", "alej", "výšina", "zahrada", "louka",
          "Čapkova", "Žižkova", "Švehlova", "Palackého", "Masarykova", "Husova", "Komenského", "Nerudova"]
features = []
for i in range(n):
    row, col = divmod(i, side)
    x = col * cell_m + rnd.uniform(10, 40)
    y = row * cell_m + rnd.uniform(10, 40)
    pts = [(x, y), (x + 60 + rnd.uniform(-10, 10), y + rnd.uniform(-20, 20)), (x + 110, y + rnd.uniform(30, 60))]
    coords = [[round(lon0 + px / m_per_deg_lon, 7), round(lat0 + py / m_per_deg_lat, 7)] for px, py in pts]
    name = f"{rnd.choice(first)} {rnd.choice(second)} {i // 400 + 1}"
    features.append({
        "type": "Feature",
        "properties": {"I_GM_U": i + 1, "N_GM_U": name},
        "geometry": {"type": "LineString", "coordinates": coords},
    })
with open(out, "w") as f:
    json.dump({"type": "FeatureCollection", "features": features}, f)
# Query points spread over the whole city, and name prefixes (folded, as users type them).
with open(out + ".points.txt", "w") as f:
    for _ in range(2000):
        f.write(f"{lon0 + rnd.uniform(0, side * cell_m) / m_per_deg_lon:.6f} "
                f"{lat0 + rnd.uniform(0, side * cell_m) / m_per_deg_lat:.6f}\n")
with open(out + ".prefixes.txt", "w") as f:
    for word in ["nova", "star", "dlouh", "horni", "zelen", "skol", "nadraz", "ricni", "cap", "ziz", "palack", "husova"]:
        f.write(word + "\n")
