import click


@click.command()
@click.argument("source", type=click.Path(exists=True), help="Directory to back up.")
@click.argument("dest")
def backup(source, dest):
    click.echo(f"{source} -> {dest}")


if __name__ == "__main__":
    backup()
