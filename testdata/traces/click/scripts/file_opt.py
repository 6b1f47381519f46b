import click


@click.command()
@click.option("--out", type=click.File("w"), default="-")
def dump(out):
    out.write(b"\x00\x01binary header\n")


if __name__ == "__main__":
    dump()
