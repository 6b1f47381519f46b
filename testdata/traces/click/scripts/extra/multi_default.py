import click


@click.command()
@click.option("--exclude", multiple=True, default="node_modules")
def scan(exclude):
    click.echo(f"excluding {exclude}")


if __name__ == "__main__":
    scan()
