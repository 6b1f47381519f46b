import click


@click.group()
@click.pass_context
def cli(ctx):
    pass


@cli.command()
@click.pass_context
def migrate(ctx):
    db_url = ctx.obj["db_url"]
    click.echo(f"migrating {db_url}")


if __name__ == "__main__":
    cli()
