"""Writes a multipart/form-data body for POST /reports with COUNT (default 1) JPEG photos of about
SIZE bytes each.

The photo is a structurally valid baseline JPEG (JFIF, an Exif block with a GPS position, tables,
one scan) whose entropy-coded data is padded with bytes that are never 0xFF, so the service's
metadata stripper streams all of it. Usage: make_filing_body.py OUT SIZE [COUNT]; prints the
boundary.
"""
import os
import random
import struct
import sys


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def jpeg(size):
    exif = b"Exif\0\0MM\0*\0\0\0\x08\0\x01\x88\x25\0\x04\0\0\0\x01\0\0\0\x1a\0\0\0\0" + b"\0" * 12
    head = b"\xFF\xD8"
    head += segment(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0")
    head += segment(0xE1, exif)
    head += segment(0xDB, bytes([0]) + bytes([1] * 64))
    head += segment(0xC0, bytes([8, 0, 8, 0, 8, 1, 1, 0x11, 0]))
    dht = bytes([0x00, 1]) + bytes(15) + bytes([0x00]) + bytes([0x10, 1]) + bytes(15) + bytes([0x00])
    head += segment(0xC4, dht)
    head += segment(0xDA, bytes([1, 1, 0x00, 0, 63, 0]))
    rng = random.Random(20261122)
    fill = size - len(head) - 2
    scan = bytes(rng.randrange(0, 255) for _ in range(min(fill, 1 << 16)))
    scan = (scan * (fill // len(scan) + 1))[:fill]
    return head + scan + b"\xFF\xD9"


def main():
    out, size = sys.argv[1], int(sys.argv[2])
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    boundary = "----citizen-bench-" + os.urandom(6).hex()
    parts = []
    for name, value in (("title", "Bench report"), ("description", "A photo of the problem")):
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    photo = jpeg(size)
    for i in range(count):
        name = "photo.jpg" if i == 0 else f"photo-{i + 1}.jpg"
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="media"; filename="{name}"\r\n'
            f"Content-Type: image/jpeg\r\n\r\n".encode()
            + photo
            + b"\r\n"
        )
    parts.append(f"--{boundary}--\r\n".encode())
    with open(out, "wb") as f:
        f.write(b"".join(parts))
    print(boundary)


if __name__ == "__main__":
    main()
