import click


@click.group()
def cli():
    """S3 helper."""


@cli.command("sync", "Sync a local folder to a bucket.")
@click.argument("folder")
@click.argument("bucket")
def sync(folder, bucket):
    click.echo(f"{folder} -> s3://{bucket}")


if __name__ == "__main__":
    cli()
