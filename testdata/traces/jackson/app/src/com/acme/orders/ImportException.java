package com.acme.orders;

public class ImportException extends RuntimeException {
    public ImportException(String message, Throwable cause) { super(message, cause); }
}
