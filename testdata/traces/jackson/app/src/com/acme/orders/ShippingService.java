package com.acme.orders;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.*;

public class ShippingService {
    private final ObjectMapper mapper = Json.MAPPER;

    Shipment recordShipment(String body) {
        try {
            return mapper.readValue(body, Shipment.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Failed to record shipment", e);
        }
    }

    Delivery parseDelivery(String body) throws JsonProcessingException {
        return mapper.readValue(body, Delivery.class);
    }

    String auditJson(AuditEvent event) throws JsonProcessingException {
        return mapper.writeValueAsString(event);
    }
}
